//! One record of the unique-position expansion: a position at some ply, the root move it lies
//! below, and how many paths lead there. Runs and level files on disk are sorted sequences of
//! these in a fixed 49-byte encoding.

use crate::chess::NybbleBoard;
use std::cmp::Ordering;
use std::io::{self, Read, Write};

/// Bytes of one encoded entry: the key's four planes, the root index, the paths.
pub const ENCODED_BYTES: usize = 32 + 1 + 16;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The NybbleBoard planes: the table's identity of the position.
    pub key: [u64; 4],
    /// Index of the root move (0 for every entry when root moves are not told apart).
    pub root: u8,
    /// Paths as two halves, so that the entry is 8-byte aligned (56 bytes, not 64).
    paths: [u64; 2],
}

impl Entry {
    pub fn new(key: NybbleBoard, root: u8, paths: u128) -> Entry {
        Entry {
            key: key.planes,
            root,
            paths: [paths as u64, (paths >> 64) as u64],
        }
    }

    pub fn paths(&self) -> u128 {
        u128::from(self.paths[0]) | u128::from(self.paths[1]) << 64
    }

    pub fn add_paths(&mut self, paths: u128) {
        *self = Entry::new(self.board(), self.root, self.paths() + paths);
    }

    pub fn board(&self) -> NybbleBoard {
        NybbleBoard { planes: self.key }
    }

    /// The order of runs and level files: by key, then by root.
    pub fn order(&self, other: &Entry) -> Ordering {
        (self.key, self.root).cmp(&(other.key, other.root))
    }

    pub fn same_class(&self, other: &Entry) -> bool {
        self.key == other.key && self.root == other.root
    }

    pub fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        let mut bytes = [0u8; ENCODED_BYTES];
        for (chunk, plane) in bytes[..32].chunks_exact_mut(8).zip(self.key) {
            chunk.copy_from_slice(&plane.to_le_bytes());
        }
        bytes[32] = self.root;
        bytes[33..].copy_from_slice(&self.paths().to_le_bytes());
        out.write_all(&bytes)
    }

    /// The next entry of `input`, or `None` at its end.
    pub fn read_from(input: &mut impl Read) -> io::Result<Option<Entry>> {
        let mut bytes = [0u8; ENCODED_BYTES];
        let mut filled = 0;
        while filled < ENCODED_BYTES {
            match input.read(&mut bytes[filled..])? {
                0 if filled == 0 => return Ok(None),
                0 => return Err(io::ErrorKind::UnexpectedEof.into()),
                n => filled += n,
            }
        }
        let mut key = [0u64; 4];
        for (plane, chunk) in key.iter_mut().zip(bytes[..32].chunks_exact(8)) {
            *plane = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        }
        let paths = u128::from_le_bytes(bytes[33..].try_into().expect("16 bytes"));
        Ok(Some(Entry::new(
            NybbleBoard { planes: key },
            bytes[32],
            paths,
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_through_their_encoding() {
        let entry = Entry::new(
            NybbleBoard {
                planes: [1, u64::MAX, 3 << 60, 7],
            },
            213,
            u128::MAX - 5,
        );
        assert_eq!(std::mem::size_of::<Entry>(), 56);
        let mut bytes = Vec::new();
        entry.write_to(&mut bytes).expect("in memory");
        entry.write_to(&mut bytes).expect("in memory");
        assert_eq!(bytes.len(), 2 * ENCODED_BYTES);
        let mut input = bytes.as_slice();
        assert_eq!(Entry::read_from(&mut input).ok().flatten(), Some(entry));
        assert_eq!(Entry::read_from(&mut input).ok().flatten(), Some(entry));
        assert!(matches!(Entry::read_from(&mut input), Ok(None)));
        let mut torn = &bytes[..ENCODED_BYTES + 3];
        assert!(Entry::read_from(&mut torn).is_ok());
        assert!(Entry::read_from(&mut torn).is_err());
    }
}
