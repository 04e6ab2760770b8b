//! CRC-32 of plan files, and sealed JSON lines: a one-line JSON object that ends with the CRC-32
//! of everything before it, `...,"crc32":"1c291ca3"}`, so that a torn or altered line is
//! detected and the line stays JSON.

/// The key of the checksum field, always the last of a sealed line.
const FIELD: &str = ",\"crc32\":\"";

/// CRC-32 (IEEE) of `bytes` as 8 lowercase hex digits.
pub fn crc32_hex(bytes: &[u8]) -> String {
    format!("{:08x}", crc32fast::hash(bytes))
}

/// `object` (compact JSON of an object with at least one field) with its checksum as a last
/// field.
pub fn seal(object: &str) -> String {
    let body = object.strip_suffix('}').unwrap_or(object);
    format!("{body}{FIELD}{}\"}}", crc32_hex(body.as_bytes()))
}

/// Whether `line` is a sealed object whose checksum matches.
pub fn is_sealed(line: &str) -> bool {
    let Some(at) = line.rfind(FIELD) else {
        return false;
    };
    let (body, tail) = line.split_at(at);
    let Some(digits) = tail[FIELD.len()..].strip_suffix("\"}") else {
        return false;
    };
    digits == crc32_hex(body.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_of_the_standard_check_string() {
        // The check value of CRC-32/ISO-HDLC.
        assert_eq!(crc32_hex(b"123456789"), "cbf43926");
        assert_eq!(crc32_hex(b""), "00000000");
    }

    #[test]
    fn sealed_lines_detect_tearing_and_changes() {
        let line = seal(r#"{"unit":3,"nodes":"8902"}"#);
        assert_eq!(
            line,
            format!(
                r#"{{"unit":3,"nodes":"8902","crc32":"{}"}}"#,
                crc32_hex(br#"{"unit":3,"nodes":"8902""#)
            )
        );
        assert!(is_sealed(&line));
        let value: serde_json::Value = serde_json::from_str(&line).expect("still JSON");
        assert_eq!(value["nodes"], "8902");
        for cut in 1..line.len() {
            assert!(!is_sealed(&line[..cut]), "torn at {cut}");
        }
        assert!(!is_sealed(&line.replace("8902", "8903")));
        assert!(!is_sealed(r#"{"unit":3}"#));
    }
}
