//! 128-bit counts serialized as decimal strings: JSON numbers lose precision past 2^53.

use serde::Serializer;

pub fn serialize<S: Serializer>(value: &u128, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(value)
}

/// `Option<u128>` as a decimal string or `null`.
pub mod option {
    use serde::Serializer;

    pub fn serialize<S: Serializer>(
        value: &Option<u128>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match value {
            Some(value) => serializer.collect_str(value),
            None => serializer.serialize_none(),
        }
    }
}
