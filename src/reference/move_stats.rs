//! Published move-type statistics (`assets/perft-stats-published.tsv`, from the Chess
//! Programming Wiki) and where vkperft's differ from them, with why
//! (`assets/perft-stats-disputes.tsv`).

use super::positions;
use crate::chess::fen::position_key;
use crate::chess::{STAT_COUNT, STAT_NAMES};
use std::sync::OnceLock;

const PUBLISHED_TSV: &str = include_str!("../../assets/perft-stats-published.tsv");
const DISPUTES_TSV: &str = include_str!("../../assets/perft-stats-disputes.tsv");

/// The wiki's statistics of one position and depth; `None` where it publishes no value (its
/// tables have no stalemates column, and none of discovered or double checks for position 4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublishedStats {
    pub name: &'static str,
    pub fen: &'static str,
    pub depth: u32,
    pub nodes: u128,
    /// In the order of [`STAT_NAMES`].
    pub stats: [Option<u128>; STAT_COUNT],
}

/// A published statistic vkperft does not reproduce, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dispute {
    pub name: &'static str,
    pub depth: u32,
    /// Index into [`STAT_NAMES`].
    pub stat: usize,
    pub published: u128,
    pub vkperft: u128,
    pub reason: &'static str,
}

fn rows(tsv: &'static str) -> impl Iterator<Item = Vec<&'static str>> {
    tsv.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| line.split('\t').collect())
}

fn fen_of(name: &str) -> &'static str {
    positions()
        .into_iter()
        .find(|&(known, _)| known == name)
        .map(|(_, fen)| fen)
        .unwrap_or_else(|| panic!("{name} is not a position of the reference table"))
}

/// Every published row, in file order.
pub fn published_stats() -> &'static [PublishedStats] {
    static ROWS: OnceLock<Vec<PublishedStats>> = OnceLock::new();
    ROWS.get_or_init(|| {
        rows(PUBLISHED_TSV)
            .map(|fields| {
                let malformed = || panic!("malformed line in the shipped table: {fields:?}");
                if fields.len() != 3 + STAT_COUNT - 1 {
                    malformed();
                }
                let number = |text: &str| text.parse::<u128>().unwrap_or_else(|_| malformed());
                let mut stats = [None; STAT_COUNT];
                // The file has every statistic but stalemates, in their order.
                for (stat, text) in stats.iter_mut().zip(&fields[3..]) {
                    *stat = (*text != "-").then(|| number(text));
                }
                PublishedStats {
                    name: fields[0],
                    fen: fen_of(fields[0]),
                    depth: number(fields[1]) as u32,
                    nodes: number(fields[2]),
                    stats,
                }
            })
            .collect()
    })
}

/// The published statistics of a position (compared by the first four FEN fields) and depth.
pub fn published_stats_for(fen: &str, depth: u32) -> Option<&'static PublishedStats> {
    let wanted = position_key(fen);
    published_stats()
        .iter()
        .find(|row| row.depth == depth && position_key(row.fen) == wanted)
}

/// Every known disagreement, in file order.
pub fn disputes() -> &'static [Dispute] {
    static ROWS: OnceLock<Vec<Dispute>> = OnceLock::new();
    ROWS.get_or_init(|| {
        rows(DISPUTES_TSV)
            .map(|fields| {
                let malformed = || panic!("malformed line in the shipped disputes: {fields:?}");
                let [name, depth, stat, published, vkperft, reason] = fields[..] else {
                    malformed()
                };
                let number = |text: &str| text.parse::<u128>().unwrap_or_else(|_| malformed());
                Dispute {
                    name,
                    depth: number(depth) as u32,
                    stat: STAT_NAMES
                        .iter()
                        .position(|&known| known == stat)
                        .unwrap_or_else(|| malformed()),
                    published: number(published),
                    vkperft: number(vkperft),
                    reason,
                }
            })
            .collect()
    })
}

/// The dispute over statistic `stat` (an index into [`STAT_NAMES`]) of a position and depth.
pub fn dispute_for(fen: &str, depth: u32, stat: usize) -> Option<&'static Dispute> {
    let wanted = position_key(fen);
    disputes().iter().find(|dispute| {
        dispute.depth == depth
            && dispute.stat == stat
            && position_key(fen_of(dispute.name)) == wanted
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_tables_parse_and_each_dispute_contradicts_a_published_value() {
        assert!(published_stats().len() >= 29);
        let start = published_stats_for(crate::chess::fen::START_FEN, 5).unwrap();
        assert_eq!(start.nodes, 4_865_609);
        assert_eq!(start.stats[7], Some(347));
        assert_eq!(start.stats[8], None);
        for dispute in disputes() {
            let row = published_stats_for(fen_of(dispute.name), dispute.depth).unwrap();
            assert_eq!(row.stats[dispute.stat], Some(dispute.published));
            assert_ne!(dispute.published, dispute.vkperft);
        }
    }
}
