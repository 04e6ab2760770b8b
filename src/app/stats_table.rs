//! The move-type statistics under a result: one row per depth of the run, each value marked
//! against the Chess Programming Wiki's table where it publishes one (green where they agree,
//! amber where they differ for a known reason, red where they differ), and the columns the
//! divide table adds per root move on demand.

use super::format;
use crate::chess::{MoveStats, STAT_COUNT};
use crate::engine::{PerftResult, STAT_HEADINGS};
use crate::reference::move_stats::{dispute_for, published_stats_for};
use egui::{Color32, RichText, Ui};

const AGREES: Color32 = Color32::from_rgb(40, 160, 70);
const DISPUTED: Color32 = Color32::from_rgb(215, 150, 30);
const DIFFERS: Color32 = Color32::from_rgb(210, 50, 50);

/// How a value stands against the published one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Nothing is published for it.
    Unpublished,
    Agrees,
    /// Differs from the published value for a known reason.
    Disputed {
        published: u128,
        reason: &'static str,
    },
    Differs {
        published: u128,
    },
}

/// The mark of statistic `stat` (an index into [`crate::chess::STAT_NAMES`]; `None` for the
/// node count) of `fen` at `depth` with `value`.
pub fn mark(fen: &str, depth: u32, stat: Option<usize>, value: u128) -> Mark {
    let Some(row) = published_stats_for(fen, depth) else {
        return Mark::Unpublished;
    };
    let published = match stat {
        None => Some(row.nodes),
        Some(stat) => row.stats[stat],
    };
    let Some(published) = published else {
        return Mark::Unpublished;
    };
    if published == value {
        return Mark::Agrees;
    }
    match stat.and_then(|stat| dispute_for(fen, depth, stat)) {
        Some(dispute) if dispute.vkperft == value => Mark::Disputed {
            published,
            reason: dispute.reason,
        },
        _ => Mark::Differs { published },
    }
}

/// One value, coloured by its mark, its hover saying why.
fn marked_value(ui: &mut Ui, value: u128, mark: &Mark) {
    let text = RichText::new(format::thousands(value)).monospace();
    ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
        match mark {
            Mark::Unpublished => ui.label(text),
            Mark::Agrees => ui
                .label(text.color(AGREES))
                .on_hover_text("Equals the Chess Programming Wiki's value"),
            Mark::Disputed { published, reason } => {
                ui.label(text.color(DISPUTED)).on_hover_text(format!(
                    "The wiki publishes {}: {reason}",
                    format::thousands(*published)
                ))
            }
            Mark::Differs { published } => ui.label(text.color(DIFFERS)).on_hover_text(format!(
                "The wiki publishes {}",
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
            egui::ScrollArea::horizontal()
                .id_salt("move-stats-scroll")
                .show(ui, |ui| {
                    egui::Grid::new("move-stats-grid")
                        .striped(true)
                        .num_columns(2 + STAT_COUNT)
                        .show(ui, |ui| {
                            ui.strong("Depth");
                            ui.strong("Nodes");
                            for heading in STAT_HEADINGS {
                                ui.strong(heading);
                            }
                            ui.end_row();
                            for (depth, nodes, stats) in rows {
                                ui.label(depth.to_string());
                                marked_value(ui, nodes, &mark(&fen, depth, None, nodes));
                                for (stat, value) in stats.values().into_iter().enumerate() {
                                    marked_value(ui, value, &mark(&fen, depth, Some(stat), value));
                                }
                                ui.end_row();
                            }
                        });
                });
            ui.label(
                RichText::new(
                    "Of the last ply's moves. Checks include checkmates, as the wiki counts \
                     them; discovered and double checks include them too, where the wiki's \
                     leave them out. Green: equals the wiki's value; amber: differs for a \
                     known reason; red: differs (hover a value for the wiki's).",
                )
                .small()
                .weak(),
            );
        });
}

/// The headings of the columns the divide table adds.
pub fn divide_headings(ui: &mut Ui) {
    for heading in STAT_HEADINGS {
        ui.strong(heading);
    }
}

/// A root move's statistics, as the divide table adds them; blanks for a move without them
/// (one only the user's engine lists).
pub fn divide_cells(ui: &mut Ui, stats: Option<&MoveStats>) {
    for stat in 0..STAT_COUNT {
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            match stats {
                Some(stats) => ui.monospace(format::thousands(stats.values()[stat])),
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
    fn values_are_marked_against_the_wiki() {
        assert_eq!(mark(START_FEN, 3, None, 8902), Mark::Agrees);
        assert_eq!(mark(START_FEN, 3, Some(0), 34), Mark::Agrees);
        assert_eq!(
            mark(START_FEN, 3, Some(0), 35),
            Mark::Differs { published: 34 }
        );
        // The wiki publishes no stalemates.
        assert_eq!(mark(START_FEN, 3, Some(8), 0), Mark::Unpublished);
        assert_eq!(mark(START_FEN, 12, None, 1), Mark::Unpublished);
        let Mark::Disputed { published, reason } = mark(KIWIPETE, 5, Some(6), 2645) else {
            panic!("Kiwipete's double checks at depth 5 are a known dispute");
        };
        assert_eq!(published, 2637);
        assert!(reason.contains("mate"), "{reason}");
        // A value that is neither the wiki's nor vkperft's is no dispute.
        assert_eq!(
            mark(KIWIPETE, 5, Some(6), 2640),
            Mark::Differs { published: 2637 }
        );
    }
}
