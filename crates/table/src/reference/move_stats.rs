//! Published move-type statistics: the Chess Programming Wiki's
//! (`assets/perft-stats-published.tsv`) and the Grand Chess Tree's
//! (`assets/perft-stats-grand-chess-tree.tsv`), each in its own convention's columns.

use super::positions;
use crate::chess::fen::position_key;
use crate::chess::{Convention, MoveStat};
use std::sync::OnceLock;

const WIKI_TSV: &str = include_str!("../../../../assets/perft-stats-published.tsv");
const GRAND_CHESS_TREE_TSV: &str =
    include_str!("../../../../assets/perft-stats-grand-chess-tree.tsv");

/// One source's statistics of one position and depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublishedStats {
    pub name: &'static str,
    pub fen: &'static str,
    pub depth: u32,
    pub nodes: u128,
    /// The columns the source publishes for this row (the wiki has no discovered or double
    /// checks for position 4; neither source has stalemates).
    pub stats: Vec<(MoveStat, u128)>,
}

impl PublishedStats {
    /// The published value of column `stat`, if there is one.
    pub fn get(&self, stat: MoveStat) -> Option<u128> {
        self.stats
            .iter()
            .find(|(known, _)| *known == stat)
            .map(|&(_, value)| value)
    }
}

fn fen_of(name: &str) -> &'static str {
    positions()
        .into_iter()
        .find(|&(known, _)| known == name)
        .map(|(_, fen)| fen)
        .unwrap_or_else(|| panic!("{name} is not a position of the reference table"))
}

/// The rows of a shipped table: its last comment line names the columns (`name`, `depth`,
/// `nodes`, then JSON keys); `-` marks a value not published.
fn parse(tsv: &'static str) -> Vec<PublishedStats> {
    let header = tsv
        .lines()
        .filter_map(|line| line.strip_prefix("# "))
        .next_back()
        .expect("a shipped table names its columns");
    let columns: Vec<&str> = header.split('\t').collect();
    let stats: Vec<MoveStat> = columns[3..]
        .iter()
        .map(|key| MoveStat::from_key(key).unwrap_or_else(|| panic!("unknown column {key}")))
        .collect();
    tsv.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let malformed = || panic!("malformed line in a shipped table: {fields:?}");
            if fields.len() != columns.len() {
                malformed();
            }
            let number = |text: &str| text.parse::<u128>().unwrap_or_else(|_| malformed());
            PublishedStats {
                name: fields[0],
                fen: fen_of(fields[0]),
                depth: number(fields[1]) as u32,
                nodes: number(fields[2]),
                stats: stats
                    .iter()
                    .zip(&fields[3..])
                    .filter(|(_, text)| **text != "-")
                    .map(|(&stat, text)| (stat, number(text)))
                    .collect(),
            }
        })
        .collect()
}

/// Every row `source` publishes, in file order.
pub fn published_stats(source: Convention) -> &'static [PublishedStats] {
    static WIKI: OnceLock<Vec<PublishedStats>> = OnceLock::new();
    static GRAND_CHESS_TREE: OnceLock<Vec<PublishedStats>> = OnceLock::new();
    match source {
        Convention::Wiki => WIKI.get_or_init(|| parse(WIKI_TSV)),
        Convention::GrandChessTree => GRAND_CHESS_TREE.get_or_init(|| parse(GRAND_CHESS_TREE_TSV)),
    }
}

/// What `source` publishes of a position (compared by the first four FEN fields) and depth.
pub fn published_stats_for(
    source: Convention,
    fen: &str,
    depth: u32,
) -> Option<&'static PublishedStats> {
    let wanted = position_key(fen);
    published_stats(source)
        .iter()
        .find(|row| row.depth == depth && position_key(row.fen) == wanted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen::START_FEN;

    #[test]
    fn the_shipped_tables_parse_in_their_conventions_columns() {
        assert!(published_stats(Convention::Wiki).len() >= 29);
        let start = published_stats_for(Convention::Wiki, START_FEN, 5).unwrap();
        assert_eq!(start.nodes, 4_865_609);
        assert_eq!(start.get(MoveStat::Checkmates), Some(347));
        assert_eq!(start.get(MoveStat::Stalemates), None);
        let start = published_stats_for(Convention::GrandChessTree, START_FEN, 8).unwrap();
        assert_eq!(start.get(MoveStat::SingleDiscoveredMates), Some(4));
        for source in Convention::ALL {
            for row in published_stats(source) {
                for (stat, _) in &row.stats {
                    assert!(source.columns().contains(stat), "{source:?} {stat:?}");
                }
            }
        }
    }

    #[test]
    fn the_two_sources_agree_where_both_publish() {
        for gct in published_stats(Convention::GrandChessTree) {
            let Some(wiki) = published_stats_for(Convention::Wiki, gct.fen, gct.depth) else {
                continue;
            };
            assert_eq!(gct.nodes, wiki.nodes);
            let gct_value = |stat| gct.get(stat).unwrap();
            let expected = [
                (MoveStat::Captures, gct_value(MoveStat::Captures)),
                (MoveStat::EnPassant, gct_value(MoveStat::EnPassants)),
                (MoveStat::Castles, gct_value(MoveStat::Castles)),
                (MoveStat::Promotions, gct_value(MoveStat::Promotions)),
                (
                    MoveStat::Checks,
                    gct_value(MoveStat::TotalChecks) + gct_value(MoveStat::TotalMates),
                ),
                (
                    MoveStat::DiscoveredChecks,
                    gct_value(MoveStat::SingleDiscoveredChecks),
                ),
                (
                    MoveStat::DoubleChecks,
                    gct_value(MoveStat::DirectDiscoveredChecks)
                        + gct_value(MoveStat::DoubleDiscoveredChecks),
                ),
                (MoveStat::Checkmates, gct_value(MoveStat::TotalMates)),
            ];
            for (stat, value) in expected {
                assert_eq!(
                    wiki.get(stat),
                    Some(value),
                    "{} {} {stat:?}",
                    gct.name,
                    gct.depth
                );
            }
        }
    }
}
