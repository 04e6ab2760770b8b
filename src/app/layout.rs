//! Where the panels go at a window size. Sizes follow the window every frame (nothing is
//! remembered from an earlier size, so growing the window gives the space back): the board
//! shrinks, down to a minimum, before any panel is cut; the history spans the whole width
//! when the columns beside the board are too narrow for its table; the run settings scroll
//! before the results lose their divide table.

/// The board's side at most and at least.
const BOARD_MAX: f32 = 450.0;
const BOARD_MIN: f32 = 200.0;
/// What the editor column holds besides the board: the two palettes, the buttons, side to
/// move, castling, the FEN field.
const EDITOR_CONTROLS_HEIGHT: f32 = 236.0;
/// The editor column's margins and the board's frame.
const EDITOR_MARGIN: f32 = 20.0;
/// The column of the run settings over the results: wide enough for the backend and its
/// threads, the four TT modes, and a compared divide's three count columns.
const MIDDLE_MIN: f32 = 290.0;
const MIDDLE_MAX: f32 = 360.0;
/// The live panel: its counters' names and values side by side.
const LIVE_MIN: f32 = 280.0;
/// Below this width beside the board, the history takes the whole width under the board.
const HISTORY_MIN_WIDTH: f32 = 760.0;
/// The history's share of the height, and its bounds: a heading, the column titles and at
/// least two rows.
const HISTORY_SHARE: f32 = 0.27;
const HISTORY_MIN_HEIGHT: f32 = 130.0;
const HISTORY_MAX_HEIGHT: f32 = 250.0;

/// The run panel's height at most (every setting) and at least (its heading, the buttons and
/// a few settings; the rest scroll).
const RUN_MAX_HEIGHT: f32 = 290.0;
const RUN_MIN_HEIGHT: f32 = 170.0;
/// The results' share of the middle column, and its least height: the total, the run line
/// and the first rows of the divide.
const RESULTS_SHARE: f32 = 0.45;
const RESULTS_MIN_HEIGHT: f32 = 220.0;

/// The panels' sizes for one frame, in points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    pub editor_width: f32,
    /// The board's side within the editor.
    pub board_side: f32,
    /// The column of the run panel over the results.
    pub middle_width: f32,
    pub run_height: f32,
    pub history_height: f32,
    /// The history spans the window's width, under the board too.
    pub history_full_width: bool,
}

impl Layout {
    /// The layout of a window body (below the top bar) of `width` by `height`, with
    /// `history_rows` runs in the history.
    pub fn for_body(width: f32, height: f32, history_rows: usize) -> Layout {
        // A history of one run leaves the rest of its share to the divide table; from two on
        // it takes the share, for their comparison too (so ticking rows moves nothing).
        let history_height = match history_rows {
            0 | 1 => HISTORY_MIN_HEIGHT,
            _ => (height * HISTORY_SHARE).clamp(HISTORY_MIN_HEIGHT, HISTORY_MAX_HEIGHT),
        };
        let beside = |column_height: f32| {
            let board = (column_height - EDITOR_CONTROLS_HEIGHT).clamp(BOARD_MIN, BOARD_MAX);
            // The board yields width to the panels beside it before they go under their
            // minimum.
            let room = width - MIDDLE_MIN - LIVE_MIN - EDITOR_MARGIN;
            board.min(room).max(BOARD_MIN)
        };
        let tall_board = beside(height);
        let history_full_width = width - tall_board - EDITOR_MARGIN < HISTORY_MIN_WIDTH;
        let column_height = if history_full_width {
            height - history_height
        } else {
            height
        };
        let board_side = if history_full_width {
            beside(column_height)
        } else {
            tall_board
        };
        let editor_width = board_side + EDITOR_MARGIN;
        let rest = (width - editor_width).max(MIDDLE_MIN + LIVE_MIN);
        let middle_width = (rest - LIVE_MIN).clamp(MIDDLE_MIN, MIDDLE_MAX);
        let middle_height = height - history_height;
        let results_height = (middle_height * RESULTS_SHARE).max(RESULTS_MIN_HEIGHT);
        let run_height = (middle_height - results_height).clamp(RUN_MIN_HEIGHT, RUN_MAX_HEIGHT);
        Layout {
            editor_width,
            board_side,
            middle_width,
            run_height,
            history_height,
            history_full_width,
        }
    }
}

/// The rectangles the panels were given in the last frame, to check what fits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PanelRects {
    pub editor: egui::Rect,
    pub run: egui::Rect,
    pub live: egui::Rect,
    pub results: egui::Rect,
    pub history: egui::Rect,
}

impl Default for PanelRects {
    fn default() -> Self {
        PanelRects {
            editor: egui::Rect::NOTHING,
            run: egui::Rect::NOTHING,
            live: egui::Rect::NOTHING,
            results: egui::Rect::NOTHING,
            history: egui::Rect::NOTHING,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The window sizes the window is made for, less the top bar.
    const BODIES: [(f32, f32); 3] = [(1280.0, 770.0), (1000.0, 620.0), (800.0, 530.0)];

    #[test]
    fn the_panels_fit_the_width_at_every_size() {
        for (width, height) in BODIES {
            let layout = Layout::for_body(width, height, 20);
            let used = layout.editor_width + layout.middle_width + LIVE_MIN;
            assert!(used <= width, "{width}x{height}: {layout:?}");
            assert!(layout.board_side >= BOARD_MIN);
            assert!(layout.run_height >= RUN_MIN_HEIGHT);
        }
    }

    #[test]
    fn the_board_shrinks_first_and_grows_back() {
        let wide = Layout::for_body(1280.0, 770.0, 20);
        assert_eq!(wide.board_side, BOARD_MAX);
        assert!(!wide.history_full_width);
        let small = Layout::for_body(800.0, 530.0, 20);
        assert_eq!(small.board_side, BOARD_MIN);
        assert!(small.history_full_width);
        assert_eq!(small.editor_width + small.middle_width + LIVE_MIN, 800.0);
        // Nothing is remembered: the wide window's layout comes back.
        assert_eq!(Layout::for_body(1280.0, 770.0, 20), wide);
    }

    #[test]
    fn a_history_of_one_run_leaves_its_share_to_the_middle_column() {
        assert_eq!(
            Layout::for_body(1280.0, 770.0, 1).history_height,
            HISTORY_MIN_HEIGHT
        );
        assert_eq!(
            Layout::for_body(1280.0, 770.0, 2).history_height,
            770.0 * HISTORY_SHARE
        );
    }
}
