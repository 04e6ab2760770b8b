//! Zobrist seeds as people write them.

use thiserror::Error;

#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("'{0}' is not a 64-bit seed (decimal or 0x-hex)")]
pub struct SeedError(pub String);

/// A Zobrist seed as people write it: decimal or `0x`-hex, surrounding spaces ignored.
pub fn parse_seed(text: &str) -> Result<u64, SeedError> {
    let trimmed = text.trim();
    let parsed = match trimmed
        .strip_prefix("0x")
        .or_else(|| trimmed.strip_prefix("0X"))
    {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => trimmed.parse(),
    };
    parsed.map_err(|_| SeedError(text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::zobrist::DEFAULT_SEED;

    #[test]
    fn seeds_in_decimal_and_hex() {
        assert_eq!(parse_seed("0x766b7065726674"), Ok(DEFAULT_SEED));
        assert_eq!(parse_seed(" 0X10 "), Ok(16));
        assert_eq!(parse_seed("42"), Ok(42));
        assert_eq!(parse_seed("0xzz"), Err(SeedError("0xzz".into())));
        assert!(parse_seed("").is_err());
        assert!(parse_seed("18446744073709551616").is_err());
    }
}
