//! bincode's decoding errors in words: its `Display` is its `Debug`
//! (`InvalidIntegerType { expected: U32, found: U64 }`), which tells a game
//! developer or a player nothing. Used for bundles and for snapshots (the
//! C ABI's `animkit_batch_restore`).

use bincode::error::{DecodeError as D, IntegerType};

/// What is wrong with the bytes, in words (no Rust type names, no Debug
/// text).
///
/// ```
/// use bincode::error::{DecodeError, IntegerType};
/// use animkit_vm::engine::codec::decode_error_in_words;
/// let e = DecodeError::InvalidIntegerType { expected: IntegerType::U32, found: IntegerType::U64 };
/// assert_eq!(decode_error_in_words(&e), "a number is too large for its field (64 bits where 32 belong)");
/// ```
pub fn decode_error_in_words(e: &D) -> String {
    match e {
        D::UnexpectedEnd { .. } => "it ends in the middle of a field".into(),
        D::LimitExceeded => "a length in it is larger than the limit".into(),
        D::InvalidIntegerType { expected, found } => match (bits(expected), bits(found)) {
            (Some(want), Some(got)) if got > want => {
                format!("a number is too large for its field ({got} bits where {want} belong)")
            }
            (_, None) => "a number starts with a reserved marker byte".into(),
            _ => "a number is stored in a form its field does not take".into(),
        },
        D::NonZeroTypeIsZero { .. } => "a field that cannot be 0 is 0".into(),
        D::UnexpectedVariant { found, .. } => format!("a field holds kind {found}, which is not one of its kinds"),
        D::Utf8 { .. } => "a string is not UTF-8".into(),
        D::InvalidCharEncoding(_) => "a character is not valid UTF-8".into(),
        D::InvalidBooleanValue(v) => format!("a yes/no field holds {v} (not 0 or 1)"),
        D::ArrayLengthMismatch { required, found } => format!("a list has {found} items where {required} belong"),
        D::OutsideUsizeRange(v) => format!("a length of {v} is too large for this machine"),
        D::EmptyEnum { .. } => "a field of a type that has no values".into(),
        D::InvalidDuration { .. } | D::InvalidSystemTime { .. } => "a time is out of range".into(),
        D::CStringNulError { .. } => "a string holds a NUL byte".into(),
        D::Io { .. } => "it could not be read".into(),
        D::Other(m) => (*m).into(),
        D::OtherString(m) => m.clone(),
        D::Serde(_) => "it holds a kind of value the format does not use".into(),
        // `DecodeError` is `#[non_exhaustive]`: a kind a later bincode adds.
        _ => "it is not in the expected format".into(),
    }
}

/// The width of an integer type, `None` for bincode's reserved marker.
fn bits(t: &IntegerType) -> Option<u32> {
    match t {
        IntegerType::U8 | IntegerType::I8 => Some(8),
        IntegerType::U16 | IntegerType::I16 => Some(16),
        IntegerType::U32 | IntegerType::I32 => Some(32),
        IntegerType::U64 | IntegerType::I64 | IntegerType::Usize | IntegerType::Isize => Some(64),
        IntegerType::U128 | IntegerType::I128 => Some(128),
        IntegerType::Reserved => None,
        // `#[non_exhaustive]` too.
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_reads_as_words() {
        let cases: [(D, &str); 8] = [
            (D::UnexpectedEnd { additional: 3 }, "it ends in the middle of a field"),
            (
                D::InvalidIntegerType { expected: IntegerType::U16, found: IntegerType::U32 },
                "a number is too large for its field (32 bits where 16 belong)",
            ),
            (
                D::InvalidIntegerType { expected: IntegerType::U32, found: IntegerType::Reserved },
                "a number starts with a reserved marker byte",
            ),
            (D::InvalidBooleanValue(7), "a yes/no field holds 7 (not 0 or 1)"),
            (D::ArrayLengthMismatch { required: 4, found: 2 }, "a list has 2 items where 4 belong"),
            (D::OutsideUsizeRange(u64::MAX), "a length of 18446744073709551615 is too large for this machine"),
            (D::OtherString("invalid value: integer `9`".into()), "invalid value: integer `9`"),
            (D::LimitExceeded, "a length in it is larger than the limit"),
        ];
        for (e, words) in cases {
            assert_eq!(decode_error_in_words(&e), words);
        }
    }
}
