//! The board editor's model: an unvalidated setup, the FEN text that follows it, and why the
//! setup is not a legal position when it is not.

use crate::chess::{fen, CastlingSquares, Color, Piece, Position, Role, Setup, Square};

pub struct Editor {
    setup: Setup,
    /// What the FEN field shows: the setup's FEN after every board edit, or the user's text.
    fen_text: String,
    /// The validated position, or the reason there is none (FEN syntax or legality).
    validity: Result<Position, String>,
}

impl Editor {
    pub fn new(setup: Setup) -> Editor {
        let mut editor = Editor {
            setup,
            fen_text: String::new(),
            validity: Err(String::new()),
        };
        editor.setup_changed();
        editor
    }

    pub fn startpos() -> Editor {
        Editor::new(Position::startpos().to_setup())
    }

    /// An editor showing `text`; an unparsable FEN keeps the text and its error over the start
    /// position's board.
    pub fn from_fen(text: &str) -> Editor {
        let mut editor = Editor::startpos();
        editor.fen_text = text.to_string();
        editor.fen_edited();
        editor
    }

    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    pub fn fen_text(&self) -> &str {
        &self.fen_text
    }

    /// The FEN field's buffer; call [`Editor::fen_edited`] after changing it.
    pub fn fen_text_mut(&mut self) -> &mut String {
        &mut self.fen_text
    }

    pub fn position(&self) -> Option<&Position> {
        self.validity.as_ref().ok()
    }

    pub fn error(&self) -> Option<&str> {
        self.validity.as_ref().err().map(String::as_str)
    }

    /// Takes the FEN field's text: a parsable FEN replaces the board.
    pub fn fen_edited(&mut self) {
        match fen::parse(self.fen_text.trim()) {
            Ok(setup) => {
                self.setup = setup;
                self.validity = Position::from_setup(&self.setup)
                    .map_err(|err| format!("illegal position: {err}"));
            }
            Err(err) => self.validity = Err(format!("invalid FEN: {err}")),
        }
    }

    /// Applies a board edit, drops the castling rights and ep square it invalidated, and
    /// rewrites the FEN field.
    pub fn edit(&mut self, change: impl FnOnce(&mut Setup)) {
        change(&mut self.setup);
        self.setup_changed();
    }

    pub fn set_position(&mut self, position: &Position) {
        self.setup = position.to_setup();
        self.setup_changed();
    }

    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        self.setup.board[square.index()]
    }

    /// A castling right can be granted only while its king and rook stand on their squares.
    pub fn castling_available(&self, color: Color, king_side: bool) -> bool {
        castling_available(&self.setup, color, king_side)
    }

    /// Squares that can be the en passant square: behind an enemy pawn that could just have
    /// double-pushed, with the square it passed and the one it came from empty.
    pub fn ep_candidates(&self) -> Vec<Square> {
        ep_candidates(&self.setup)
    }

    fn setup_changed(&mut self) {
        for rook in self.setup.castling_rooks {
            if !castling_rook_stands(&self.setup, rook) {
                self.setup.castling_rooks = self.setup.castling_rooks.without(rook);
            }
        }
        if let Some(ep) = self.setup.ep_square {
            if !ep_candidates(&self.setup).contains(&ep) {
                self.setup.ep_square = None;
            }
        }
        self.fen_text = fen::format_setup(&self.setup);
        self.validity =
            Position::from_setup(&self.setup).map_err(|err| format!("illegal position: {err}"));
    }
}

fn castling_available(setup: &Setup, color: Color, king_side: bool) -> bool {
    let squares = CastlingSquares::standard(color, king_side);
    setup.board[squares.king_from.index()] == Some(Piece::new(color, Role::King))
        && setup.board[squares.rook_from.index()] == Some(Piece::new(color, Role::Rook))
}

/// Whether a castling right on `rook` still has its rook, and its king on the same back rank.
fn castling_rook_stands(setup: &Setup, rook: Square) -> bool {
    let color = match rook.rank() {
        0 => Color::White,
        7 => Color::Black,
        _ => return false,
    };
    let king = Some(Piece::new(color, Role::King));
    setup.board[rook.index()] == Some(Piece::new(color, Role::Rook))
        && (0..8).any(|file| setup.board[Square::from_coords(file, rook.rank()).index()] == king)
}

fn ep_candidates(setup: &Setup) -> Vec<Square> {
    let them = !setup.turn;
    // (rank of the ep square, rank of the pawn, rank it came from), 0-based.
    let (ep_rank, pawn_rank, origin_rank) = match them {
        Color::White => (2, 3, 1),
        Color::Black => (5, 4, 6),
    };
    (0..8)
        .filter(|&file| {
            setup.board[Square::from_coords(file, pawn_rank).index()]
                == Some(Piece::new(them, Role::Pawn))
                && setup.board[Square::from_coords(file, ep_rank).index()].is_none()
                && setup.board[Square::from_coords(file, origin_rank).index()].is_none()
        })
        .map(|file| Square::from_coords(file, ep_rank))
        .collect()
}

/// The FEN of a setup that may not be a legal position (the library formats positions only).
#[cfg(test)]
mod tests {
    use super::*;

    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

    #[test]
    fn fen_round_trips_through_the_setup() {
        let editor = Editor::from_fen(KIWIPETE);
        assert!(editor.position().is_some());
        assert_eq!(fen::format_setup(editor.setup()), KIWIPETE);
    }

    #[test]
    fn moving_a_rook_drops_its_castling_right() {
        let mut editor = Editor::startpos();
        editor.edit(|setup| setup.board[Square::H1.index()] = None);
        assert!(!editor.castling_available(Color::White, true));
        assert!(editor.fen_text().contains(" Qkq "));
    }

    #[test]
    fn invalid_fen_and_illegal_position_have_reasons() {
        let mut editor = Editor::startpos();
        *editor.fen_text_mut() = "8/8/8 w - -".to_string();
        editor.fen_edited();
        assert!(editor.error().is_some_and(|e| e.starts_with("invalid FEN")));
        *editor.fen_text_mut() = "8/8/8/8/8/8/8/K7 w - - 0 1".to_string();
        editor.fen_edited();
        assert!(editor
            .error()
            .is_some_and(|e| e.contains("black has no king")));
    }

    #[test]
    fn ep_candidates_follow_the_pawns() {
        let editor = Editor::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1");
        assert_eq!(editor.ep_candidates(), vec![Square::parse("d6").unwrap()]);
    }
}
