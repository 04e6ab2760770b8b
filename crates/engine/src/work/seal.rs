//! SHA-256 digests of plan files: the plan's seal (the digest of its `manifest.json`), which
//! every journal record carries so that a result is counted only in the plan it was computed
//! for, and the digests of journal files that a certificate names.

use sha2::{Digest, Sha256};
use std::fmt;

/// A SHA-256 digest.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sha256Digest([u8; 32]);

impl Sha256Digest {
    pub fn of(bytes: &[u8]) -> Sha256Digest {
        Sha256Digest(Sha256::digest(bytes).into())
    }

    /// Parses 64 hex digits (either case).
    pub fn parse(text: &str) -> Option<Sha256Digest> {
        if text.len() != 64 || !text.is_ascii() {
            return None;
        }
        let mut bytes = [0u8; 32];
        for (byte, pair) in bytes.iter_mut().zip(text.as_bytes().chunks(2)) {
            let pair = std::str::from_utf8(pair).ok()?;
            *byte = u8::from_str_radix(pair, 16).ok()?;
        }
        Some(Sha256Digest(bytes))
    }
}

/// 64 lowercase hex digits.
impl fmt::Display for Sha256Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|byte| write!(f, "{byte:02x}"))
    }
}

impl fmt::Debug for Sha256Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sha256Digest({self})")
    }
}

/// A plan's identity: the SHA-256 of its `manifest.json`, which names the root, the depth,
/// the split ply and the checksum of every shard file.
pub type PlanSeal = Sha256Digest;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_of_the_standard_vectors_round_trip_as_hex() {
        let empty = Sha256Digest::of(b"");
        assert_eq!(
            empty.to_string(),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        let abc = Sha256Digest::of(b"abc");
        assert_eq!(
            abc.to_string(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(Sha256Digest::parse(&abc.to_string()), Some(abc));
        assert_eq!(
            Sha256Digest::parse(&abc.to_string().to_uppercase()),
            Some(abc)
        );
        for bad in ["", "ab", &"g".repeat(64), &"é".repeat(32)] {
            assert_eq!(Sha256Digest::parse(bad), None, "{bad}");
        }
    }
}
