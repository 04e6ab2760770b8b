//! A ply (or one partition of it) on disk: its positions sorted by [`PackedKey`], each with its
//! paths from the root (and root move index, where roots are kept apart), in blocks that can be
//! read and checked apart from each other.
//!
//! ```text
//! file    = "VKPUNIQ1" flags:u8 block* end
//! block   = entries:u32 bytes:u32 crc32:u32 entry{entries}     (CRC-32 of the entries' bytes)
//! entry   = shared:u8 suffix:[u8; 24 - shared] [root:u8] paths:LEB128
//! end     = 0:u32 0:u32 0:u32 unique:u64 entries:u64 paths:u128 crc32:u32   (CRC of the totals)
//! ```
//!
//! `shared` is how many leading key bytes equal the previous entry's in the block (0 for a
//! block's first). A key's entries (one per root move) are never cut across blocks, so each
//! block is a run of whole positions. Files are written aside and renamed when whole.

use super::error::UniqueError;
use super::key::{PackedKey, KEY_BYTES};
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"VKPUNIQ1";
const FLAG_ROOTS: u8 = 1;
/// Entries after which a block ends (at the next new key): small enough that a thread's
/// decoded block is a megabyte or two, large enough that there are few block headers.
pub const BLOCK_ENTRIES: usize = 16_384;
/// Bytes of a block's entries at most: 24 key bytes, a root and a 10-byte varint each, plus a
/// key's further roots (at most 218) past the limit.
const MAX_BLOCK_BYTES: usize = (BLOCK_ENTRIES + 256) * (1 + KEY_BYTES + 1 + 10);

/// One entry of a ply: a position (under one root move) and its paths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlyEntry {
    pub key: PackedKey,
    pub root: u8,
    pub paths: u64,
}

/// What a whole file holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlyTotals {
    /// Distinct positions.
    pub unique: u64,
    /// Entries (more than positions where roots are kept apart).
    pub entries: u64,
    pub paths: u128,
}

pub struct PlyWriter {
    out: BufWriter<File>,
    staged: PathBuf,
    path: PathBuf,
    with_roots: bool,
    block: Vec<u8>,
    block_entries: u32,
    previous: Option<[u8; KEY_BYTES]>,
    totals: PlyTotals,
}

impl PlyWriter {
    /// Starts the file `path` (written as `path.tmp` until [`PlyWriter::finish`]).
    pub fn create(path: &Path, with_roots: bool) -> Result<PlyWriter, UniqueError> {
        let staged = super::folder::staged(path);
        let file = File::create(&staged).map_err(|e| UniqueError::io(&staged, e))?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        out.write_all(MAGIC)
            .and_then(|()| out.write_all(&[if with_roots { FLAG_ROOTS } else { 0 }]))
            .map_err(|e| UniqueError::io(&staged, e))?;
        Ok(PlyWriter {
            out,
            staged,
            path: path.to_path_buf(),
            with_roots,
            block: Vec::with_capacity(MAX_BLOCK_BYTES),
            block_entries: 0,
            previous: None,
            totals: PlyTotals::default(),
        })
    }

    /// Appends an entry; entries come sorted by key, then root.
    pub fn push(&mut self, entry: PlyEntry) -> Result<(), UniqueError> {
        let bytes = entry.key.to_bytes();
        let same_key = self.previous == Some(bytes);
        if !same_key && self.block_entries as usize >= BLOCK_ENTRIES {
            self.end_block()?;
        }
        let shared = match self.previous {
            Some(previous) if self.block_entries > 0 => previous
                .iter()
                .zip(&bytes)
                .take_while(|(a, b)| a == b)
                .count(),
            _ => 0,
        };
        self.block.push(shared as u8);
        self.block.extend_from_slice(&bytes[shared..]);
        if self.with_roots {
            self.block.push(entry.root);
        }
        let mut paths = entry.paths;
        while paths >= 0x80 {
            self.block.push(paths as u8 | 0x80);
            paths >>= 7;
        }
        self.block.push(paths as u8);
        self.block_entries += 1;
        self.previous = Some(bytes);
        self.totals.unique += u64::from(!same_key);
        self.totals.entries += 1;
        self.totals.paths += u128::from(entry.paths);
        Ok(())
    }

    fn end_block(&mut self) -> Result<(), UniqueError> {
        if self.block_entries == 0 {
            return Ok(());
        }
        let header = [
            self.block_entries,
            self.block.len() as u32,
            crc32fast::hash(&self.block),
        ];
        let staged = &self.staged;
        header
            .iter()
            .try_for_each(|word| self.out.write_all(&word.to_le_bytes()))
            .and_then(|()| self.out.write_all(&self.block))
            .map_err(|e| UniqueError::io(staged, e))?;
        self.block.clear();
        self.block_entries = 0;
        Ok(())
    }

    /// Ends the file, makes it durable and gives it its name.
    pub fn finish(mut self) -> Result<PlyTotals, UniqueError> {
        self.end_block()?;
        let totals = self.totals;
        let mut end = Vec::with_capacity(48);
        end.extend_from_slice(&[0u8; 12]);
        let mut sums = Vec::with_capacity(32);
        sums.extend_from_slice(&totals.unique.to_le_bytes());
        sums.extend_from_slice(&totals.entries.to_le_bytes());
        sums.extend_from_slice(&totals.paths.to_le_bytes());
        end.extend_from_slice(&sums);
        end.extend_from_slice(&crc32fast::hash(&sums).to_le_bytes());
        let staged = self.staged.clone();
        self.out
            .write_all(&end)
            .map_err(|e| UniqueError::io(&staged, e))?;
        let file = self
            .out
            .into_inner()
            .map_err(|e| UniqueError::io(&staged, e.into_error()))?;
        file.sync_all().map_err(|e| UniqueError::io(&staged, e))?;
        std::fs::rename(&staged, &self.path).map_err(|e| UniqueError::io(&self.path, e))?;
        Ok(totals)
    }
}

/// A block as read: checked against its CRC, not yet decoded.
pub struct RawBlock {
    pub entries: u32,
    pub bytes: Vec<u8>,
}

pub struct PlyReader {
    input: BufReader<File>,
    path: PathBuf,
    pub with_roots: bool,
    /// Entries of the blocks read so far: the end's count must match.
    entries: u64,
    totals: Option<PlyTotals>,
}

impl PlyReader {
    pub fn open(path: &Path) -> Result<PlyReader, UniqueError> {
        PlyReader::open_with_buffer(path, 1 << 20)
    }

    /// Opens `path`, read through a buffer of `buffer` bytes.
    pub fn open_with_buffer(path: &Path, buffer: usize) -> Result<PlyReader, UniqueError> {
        let file = File::open(path).map_err(|e| UniqueError::io(path, e))?;
        let mut input = BufReader::with_capacity(buffer, file);
        let mut header = [0u8; 9];
        input
            .read_exact(&mut header)
            .map_err(|e| UniqueError::io(path, e))?;
        if &header[..8] != MAGIC || header[8] & !FLAG_ROOTS != 0 {
            return Err(UniqueError::corrupt(path, "not a ply file of this version"));
        }
        Ok(PlyReader {
            input,
            path: path.to_path_buf(),
            with_roots: header[8] & FLAG_ROOTS != 0,
            entries: 0,
            totals: None,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The next block, or `None` after the last, once the file's end and totals are checked.
    pub fn next_block(&mut self) -> Result<Option<RawBlock>, UniqueError> {
        if self.totals.is_some() {
            return Ok(None);
        }
        let mut header = [0u8; 12];
        self.read(&mut header)?;
        let word = |i: usize| u32::from_le_bytes(header[4 * i..4 * i + 4].try_into().expect("4"));
        let (entries, length, crc) = (word(0), word(1), word(2));
        if entries == 0 {
            let mut end = [0u8; 36];
            self.read(&mut end)?;
            let stored = u32::from_le_bytes(end[32..].try_into().expect("4 bytes"));
            if length != 0 || crc != 0 || crc32fast::hash(&end[..32]) != stored {
                return Err(UniqueError::corrupt(&self.path, "its end is damaged"));
            }
            let totals = PlyTotals {
                unique: u64::from_le_bytes(end[..8].try_into().expect("8 bytes")),
                entries: u64::from_le_bytes(end[8..16].try_into().expect("8 bytes")),
                paths: u128::from_le_bytes(end[16..32].try_into().expect("16 bytes")),
            };
            if totals.entries != self.entries {
                return Err(UniqueError::corrupt(&self.path, "blocks are missing"));
            }
            self.totals = Some(totals);
            return Ok(None);
        }
        if length as usize > MAX_BLOCK_BYTES {
            return Err(UniqueError::corrupt(&self.path, "a block is too long"));
        }
        let mut bytes = vec![0u8; length as usize];
        self.read(&mut bytes)?;
        if crc32fast::hash(&bytes) != crc {
            return Err(UniqueError::corrupt(
                &self.path,
                "a block's checksum differs",
            ));
        }
        self.entries += u64::from(entries);
        Ok(Some(RawBlock { entries, bytes }))
    }

    fn read(&mut self, buffer: &mut [u8]) -> Result<(), UniqueError> {
        self.input.read_exact(buffer).map_err(|e| match e.kind() {
            std::io::ErrorKind::UnexpectedEof => UniqueError::corrupt(&self.path, "it ends early"),
            _ => UniqueError::io(&self.path, e),
        })
    }
}

/// Decodes `block` (of a file with roots or not) into `out`, replacing what it held.
pub fn decode_block(
    block: &RawBlock,
    with_roots: bool,
    path: &Path,
    out: &mut Vec<PlyEntry>,
) -> Result<(), UniqueError> {
    out.clear();
    let bad = || UniqueError::corrupt(path, "a block does not decode");
    let bytes = &block.bytes;
    let mut at = 0;
    let mut key = [0u8; KEY_BYTES];
    for index in 0..block.entries {
        let shared = *bytes.get(at).ok_or_else(bad)? as usize;
        if shared > KEY_BYTES || (index == 0 && shared != 0) {
            return Err(bad());
        }
        let suffix = bytes
            .get(at + 1..at + 1 + KEY_BYTES - shared)
            .ok_or_else(bad)?;
        key[shared..].copy_from_slice(suffix);
        at += 1 + KEY_BYTES - shared;
        let root = if with_roots {
            at += 1;
            *bytes.get(at - 1).ok_or_else(bad)?
        } else {
            0
        };
        let mut paths = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = *bytes.get(at).ok_or_else(bad)?;
            at += 1;
            paths |= u64::from(byte & 0x7f) << shift;
            if byte < 0x80 {
                break;
            }
        }
        out.push(PlyEntry {
            key: PackedKey::from_bytes(&key),
            root,
            paths,
        });
    }
    if at != bytes.len() {
        return Err(bad());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::rng::SplitMix64;

    fn entries(count: u64) -> Vec<PlyEntry> {
        let mut rng = SplitMix64::new(1);
        let mut keys: Vec<[u64; 3]> = (0..count)
            .map(|_| [rng.next_u64() >> 40, rng.next_u64(), rng.below(4)])
            .collect();
        keys.sort_unstable();
        keys.dedup();
        keys.iter()
            .flat_map(|&key| {
                let roots = 1 + key[2] as u8 % 3;
                (0..roots).map(move |root| PlyEntry {
                    key: PackedKey(key),
                    root,
                    paths: key[1] >> (key[2] * 20),
                })
            })
            .collect()
    }

    fn read_all(path: &Path) -> Result<(Vec<PlyEntry>, Option<PlyTotals>), UniqueError> {
        let mut reader = PlyReader::open(path)?;
        let (mut all, mut block) = (Vec::new(), Vec::new());
        while let Some(raw) = reader.next_block()? {
            decode_block(&raw, reader.with_roots, path, &mut block)?;
            all.extend_from_slice(&block);
        }
        Ok((all, reader.totals))
    }

    /// Entries round-trip over several blocks, with roots and without; damage anywhere and a
    /// cut anywhere are found.
    #[test]
    fn ply_files_round_trip_and_find_damage() {
        let dir = std::env::temp_dir().join(format!("vkperft-ply-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a folder");
        for with_roots in [true, false] {
            let mut written = entries(40_000);
            if !with_roots {
                written.dedup_by_key(|e| e.key);
                written.iter_mut().for_each(|e| e.root = 0);
            }
            let path = dir.join("ply.bin");
            let mut writer = PlyWriter::create(&path, with_roots).expect("created");
            written
                .iter()
                .try_for_each(|&e| writer.push(e))
                .expect("written");
            let totals = writer.finish().expect("finished");
            assert!(!super::super::folder::staged(&path).exists());
            let (read, end) = read_all(&path).expect("read back");
            assert_eq!(read, written);
            assert_eq!(end, Some(totals));
            let unique = {
                let mut keys: Vec<_> = written.iter().map(|e| e.key).collect();
                keys.dedup();
                keys.len() as u64
            };
            assert_eq!(totals.unique, unique);
            assert_eq!(totals.entries, written.len() as u64);
            let bytes = std::fs::read(&path).expect("the file");
            for at in [20, bytes.len() / 2, bytes.len() - 3] {
                let mut damaged = bytes.clone();
                damaged[at] ^= 0x10;
                std::fs::write(&path, &damaged).expect("written");
                assert!(
                    matches!(read_all(&path), Err(UniqueError::Corrupt { .. })),
                    "{at}"
                );
                std::fs::write(&path, &bytes[..at]).expect("written");
                assert!(
                    matches!(read_all(&path), Err(UniqueError::Corrupt { .. })),
                    "{at}"
                );
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
