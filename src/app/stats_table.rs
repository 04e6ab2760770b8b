//! The move-type statistics under a result: one row per depth of the run in the columns of the
//! convention the user picks (the Grand Chess Tree's, checks without mates, or the Chess
//! Programming Wiki's, checks with mates), each value marked against that source's table where
//! it publishes one (green where they agree, red where they differ), and the columns the divide
//! table adds per root move on demand, in the same convention.

use super::format;
use crate::chess::{Convention, MoveStat, MoveStats};
use crate::engine::PerftResult;
use crate::reference::move_stats::published_stats_for;
use egui::{Color32, Context, Id, RichText, Ui};

const AGREES: Color32 = Color32::from_rgb(40, 160, 70);
const DIFFERS: Color32 = Color32::from_rgb(210, 50, 50);

/// How a value stands against the published one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Nothing is published for it.
    Unpublished,
    Agrees,
    Differs {
        published: u128,
    },
}

/// The mark of column `stat` (`None` for the node count) of `fen` at `depth` with `value`,
/// against what `source` publishes.
pub fn mark(
    source: Convention,
    fen: &str,
    depth: u32,
    stat: Option<MoveStat>,
    value: u128,
) -> Mark {
    let Some(row) = published_stats_for(source, fen, depth) else {
        return Mark::Unpublished;
    };
    let published = match stat {
        None => Some(row.nodes),
        Some(stat) => row.get(stat),
    };
    match published {
        None => Mark::Unpublished,
        Some(published) if published == value => Mark::Agrees,
        Some(published) => Mark::Differs { published },
    }
}

/// The convention the tables show, as the user last picked it in this session (the Grand
/// Chess Tree's at first).
fn convention(ctx: &Context) -> Convention {
    ctx.data_mut(|data| *data.get_temp_mut_or(convention_id(), Convention::GrandChessTree))
}

fn convention_id() -> Id {
    Id::unique("move-stats-convention")
}

/// One value, coloured by its mark, its hover saying why.
fn marked_value(ui: &mut Ui, source: Convention, value: u128, mark: &Mark) {
    let text = RichText::new(format::thousands(value)).monospace();
    ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
        match mark {
            Mark::Unpublished => ui.label(text),
            Mark::Agrees => ui
                .label(text.color(AGREES))
                .on_hover_text(format!("Equals the {}'s value", source.name())),
            Mark::Differs { published } => ui.label(text.color(DIFFERS)).on_hover_text(format!(
                "The {} publishes {}",
                source.name(),
                format::thousands(*published)
            )),
        };
    });
}

/// The statistics by depth of a result that counted them (nothing otherwise).
pub fn show(ui: &mut Ui, result: &PerftResult) {
    if !result.move_stats {
        return;
    }
    let fen = result.position.to_fen();
    let rows: Vec<(u32, u128, MoveStats)> = if result.stats_by_depth.is_empty() {
        vec![(result.depth, result.counts.nodes, result.counts.stats)]
    } else {
        result
            .stats_by_depth
            .iter()
            .map(|(depth, counts)| (*depth, counts.nodes, counts.stats))
            .collect()
    };
    egui::CollapsingHeader::new("Move-type statistics")
        .id_salt("move-stats")
        .default_open(true)
        .show(ui, |ui| {
            let mut source = convention(ui.ctx());
            ui.horizontal(|ui| {
                ui.label("Columns and marks:");
                for choice in Convention::ALL {
                    ui.radio_value(&mut source, choice, choice.name());
                }
            });
            ui.ctx()
                .data_mut(|data| data.insert_temp(convention_id(), source));
            let columns = source.columns();
            egui::ScrollArea::horizontal()
                .id_salt("move-stats-scroll")
                .show(ui, |ui| {
                    egui::Grid::new("move-stats-grid")
                        .striped(true)
                        .num_columns(2 + columns.len())
                        .show(ui, |ui| {
                            ui.strong("Depth");
                            ui.strong("Nodes");
                            for stat in columns {
                                ui.strong(stat.heading()).on_hover_text(stat.key());
                            }
                            ui.end_row();
                            for (depth, nodes, stats) in rows {
                                ui.label(depth.to_string());
                                let node_mark = mark(source, &fen, depth, None, nodes);
                                marked_value(ui, source, nodes, &node_mark);
                                for &stat in columns {
                                    let value = stats.get(stat);
                                    let stat_mark = mark(source, &fen, depth, Some(stat), value);
                                    marked_value(ui, source, value, &stat_mark);
                                }
                                ui.end_row();
                            }
                        });
                });
            let note = match source {
                Convention::GrandChessTree => {
                    "Of the last ply's moves. Checks leave out the checks that mate, which the \
                     mates columns count by how they check. Green: equals the Grand Chess Tree's \
                     value; red: differs (hover a value for the published one)."
                }
                Convention::Wiki => {
                    "Of the last ply's moves. Checks include checkmates; discovered and double \
                     checks leave them out, as the wiki counts them. Green: equals the wiki's \
                     value; red: differs (hover a value for the published one)."
                }
            };
            ui.label(RichText::new(note).small().weak());
        });
}

/// The headings of the columns the divide table adds.
pub fn divide_headings(ui: &mut Ui) {
    for stat in convention(ui.ctx()).columns() {
        ui.strong(stat.heading()).on_hover_text(stat.key());
    }
}

/// A root move's statistics, as the divide table adds them; blanks for a move without them
/// (one only the user's engine lists).
pub fn divide_cells(ui: &mut Ui, stats: Option<&MoveStats>) {
    for &stat in convention(ui.ctx()).columns() {
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            match stats {
                Some(stats) => ui.monospace(format::thousands(stats.get(stat))),
                None => ui.monospace("–"),
            };
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen::START_FEN;

    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

    #[test]
    fn values_are_marked_against_the_source_picked() {
        let wiki = Convention::Wiki;
        assert_eq!(mark(wiki, START_FEN, 3, None, 8902), Mark::Agrees);
        assert_eq!(
            mark(wiki, START_FEN, 3, Some(MoveStat::Captures), 34),
            Mark::Agrees
        );
        assert_eq!(
            mark(wiki, START_FEN, 3, Some(MoveStat::Captures), 35),
            Mark::Differs { published: 34 }
        );
        // Neither source publishes stalemates.
        for source in Convention::ALL {
            assert_eq!(
                mark(source, START_FEN, 3, Some(MoveStat::Stalemates), 0),
                Mark::Unpublished
            );
        }
        assert_eq!(mark(wiki, START_FEN, 13, None, 1), Mark::Unpublished);
        // Kiwipete's depth 6 has 66 checks by two pieces that mate: the wiki leaves them out of
        // its double checks, the Grand Chess Tree counts them as direct discovered mates.
        assert_eq!(
            mark(wiki, KIWIPETE, 6, Some(MoveStat::DoubleChecks), 54_948),
            Mark::Agrees
        );
        let gct = Convention::GrandChessTree;
        assert_eq!(
            mark(gct, KIWIPETE, 6, Some(MoveStat::DirectDiscoveredMates), 66),
            Mark::Agrees
        );
        assert_eq!(
            mark(
                gct,
                KIWIPETE,
                6,
                Some(MoveStat::DirectDiscoveredChecks),
                55_014
            ),
            Mark::Differs { published: 54_948 }
        );
    }
}
