//! Tab-separated tables: `FEN<TAB>depth<TAB>nodes`, or `id<TAB>FEN<TAB>depth<TAB>nodes` (the
//! shape of vkperft's `perft-reference.tsv`), one row per position and depth; or a table whose
//! header names its columns: a FEN column (`fen`, `shredder_fen`, `xfen` or `epd`, in that
//! order of preference), an optional `id`, `name` or `index` column, and either `depth` and
//! `nodes` columns or one `perft<N>` (or `d<N>`) column per depth, as `chess960-perft.tsv`.
//! Consecutive rows of one position make one entry.

use super::entry::{numbers, SuiteEntry};
use super::error::{LineProblem, Location};
use crate::chess::fen;

/// Where a table's values are.
struct Columns {
    id: Option<usize>,
    fen: usize,
    counts: Counts,
    width: usize,
}

enum Counts {
    /// A depth column and a nodes column.
    Long { depth: usize, nodes: usize },
    /// One column per depth.
    Wide(Vec<(usize, u32)>),
}

impl Columns {
    /// The columns a header line names, or `None` if the line is no header.
    fn of_header(fields: &[&str]) -> Option<Result<Columns, LineProblem>> {
        let names: Vec<String> = fields.iter().map(|f| f.trim().to_lowercase()).collect();
        let find = |wanted: &[&str]| {
            wanted
                .iter()
                .find_map(|name| names.iter().position(|n| n == name))
        };
        let fen = find(&["fen", "shredder_fen", "xfen", "epd"]);
        let depth = find(&["depth"]);
        let nodes = find(&["nodes", "count"]);
        if fen.is_none() && depth.is_none() && nodes.is_none() {
            return None;
        }
        let Some(fen) = fen else {
            return Some(Err(LineProblem::NoFenColumn));
        };
        let wide: Vec<(usize, u32)> = names
            .iter()
            .enumerate()
            .filter_map(|(column, name)| {
                let digits = name
                    .strip_prefix("perft")
                    .or_else(|| name.strip_prefix('d'))?;
                Some((column, digits.parse().ok().filter(|&d| d > 0)?))
            })
            .collect();
        let counts = match (depth, nodes) {
            (Some(depth), Some(nodes)) => Counts::Long { depth, nodes },
            _ if !wide.is_empty() => Counts::Wide(wide),
            _ => return Some(Err(LineProblem::NoCountColumns)),
        };
        Some(Ok(Columns {
            id: find(&["id", "name", "index"]),
            fen,
            counts,
            width: fields.len(),
        }))
    }

    /// The columns of a headerless row of `width` fields.
    fn headerless(width: usize) -> Result<Columns, LineProblem> {
        let first = match width {
            3 => 0,
            4 => 1,
            found => return Err(LineProblem::FieldCount { found }),
        };
        Ok(Columns {
            id: (first == 1).then_some(0),
            fen: first,
            counts: Counts::Long {
                depth: first + 1,
                nodes: first + 2,
            },
            width,
        })
    }
}

/// Reads the lines of a table (numbered from 1, comments and blanks dropped) into its
/// positions; a bad line ends the reading unless `on_bad` takes it.
pub(super) fn read(
    lines: &[(usize, &str)],
    location: &dyn Fn(usize) -> Location,
    on_bad: &mut dyn FnMut(usize, LineProblem) -> bool,
) -> Vec<SuiteEntry> {
    let mut entries: Vec<SuiteEntry> = Vec::new();
    let mut header: Option<Columns> = None;
    for (index, &(number, line)) in lines.iter().enumerate() {
        let fields: Vec<&str> = line.split('\t').collect();
        if index == 0 {
            match Columns::of_header(&fields) {
                Some(Ok(columns)) => {
                    header = Some(columns);
                    continue;
                }
                Some(Err(problem)) => {
                    // Without its header no row of the table can be read.
                    on_bad(number, problem);
                    return entries;
                }
                None => {}
            }
        }
        let row = match &header {
            Some(columns) if fields.len() != columns.width => Err(LineProblem::HeaderMismatch {
                found: fields.len(),
                expected: columns.width,
            }),
            Some(columns) => read_row(&fields, columns),
            None => Columns::headerless(fields.len()).and_then(|c| read_row(&fields, &c)),
        };
        let added = row.and_then(|(id, fen_text, counts)| {
            let same = entries.last().is_some_and(|last| {
                last.fen == fen_text && id.as_ref().is_none_or(|id| *id == last.id)
            });
            if !same {
                entries.push(SuiteEntry::new(id, fen_text, location(number)));
            }
            let entry = entries.last_mut().expect("pushed above");
            counts.into_iter().try_for_each(|(depth, nodes)| {
                entry
                    .add(depth, Some(nodes))
                    .map_err(|depth| LineProblem::RepeatedDepth { depth })
            })
        });
        if let Err(problem) = added {
            if !on_bad(number, problem) {
                break;
            }
        }
    }
    entries
}

/// A row's id, FEN and counts.
type Row = (Option<String>, String, Vec<(u32, u128)>);

fn read_row(fields: &[&str], columns: &Columns) -> Result<Row, LineProblem> {
    let fen_text = fields[columns.fen].trim().to_string();
    fen::parse(&fen_text).map_err(LineProblem::Fen)?;
    let id = columns
        .id
        .map(|column| fields[column].trim().to_string())
        .filter(|id| !id.is_empty());
    let counts = match &columns.counts {
        Counts::Long { depth, nodes } => vec![(
            numbers::depth(fields[*depth])?,
            numbers::count(fields[*nodes])?,
        )],
        Counts::Wide(columns) => columns
            .iter()
            .filter(|(column, _)| !fields[*column].trim().is_empty())
            .map(|&(column, depth)| Ok((depth, numbers::count(fields[column])?)))
            .collect::<Result<_, LineProblem>>()?,
    };
    Ok((id, fen_text, counts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn read_text(text: &str) -> (Vec<SuiteEntry>, Vec<(usize, LineProblem)>) {
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(index, line)| (index + 1, line.trim_end()))
            .filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'))
            .collect();
        let mut bad = Vec::new();
        let location = |line| Location {
            file: PathBuf::from("t.tsv"),
            line,
        };
        let entries = read(&lines, &location, &mut |line, problem| {
            bad.push((line, problem));
            true
        });
        (entries, bad)
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn rows_of_one_position_make_one_entry() {
        let text =
            format!("# c\n{START}\t1\t20\n{START}\t2\t400\n4k3/8/8/8/8/8/8/4K3 w - -\t1\t5\n");
        let (entries, bad) = read_text(&text);
        assert!(bad.is_empty(), "{bad:?}");
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].depths.len(), 2);
        assert_eq!(entries[0].id, "t.tsv:2");
        let named = format!("startpos\t{START}\t1\t20\nstartpos\t{START}\t2\t400\n");
        let (entries, _) = read_text(&named);
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].id, "startpos");
    }

    #[test]
    fn a_header_names_the_columns() {
        let text = format!(
            "index\txfen\tshredder_fen\tperft1\tperft2\n518\t{START}\t{}\t20\t400\n",
            START.replace("KQkq", "HAha")
        );
        let (entries, bad) = read_text(&text);
        assert!(bad.is_empty(), "{bad:?}");
        assert_eq!(entries[0].id, "518");
        assert!(
            entries[0].fen.contains("HAha"),
            "the Shredder-FEN is preferred"
        );
        assert_eq!(entries[0].count_at(2).and_then(|c| c.nodes), Some(400));
        let (_, bad) = read_text("name\tdepth\tnodes\nx\t1\t2\n");
        assert_eq!(bad, [(1, LineProblem::NoFenColumn)]);
    }

    #[test]
    fn bad_rows_are_named() {
        let text = format!("{START}\t1\n{START}\tone\t20\n{START}\t1\t-5\n");
        let (_, bad) = read_text(&text);
        assert_eq!(
            bad,
            [
                (1, LineProblem::FieldCount { found: 2 }),
                (2, LineProblem::BadDepth("one".into())),
                (3, LineProblem::BadCount("-5".into())),
            ]
        );
    }
}
