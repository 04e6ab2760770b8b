//! The board editor's model: an unvalidated setup, the FEN text that follows it, and why the
//! setup is not a legal position when it is not.

use crate::chess::{
    fen, CastlingNotation, CastlingSquares, Color, Piece, Position, Role, Setup, Square,
};

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
                self.validity = validate(&self.setup);
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

    /// Whether castling is written as in Chess960 (Shredder-FEN, king-to-rook moves): chosen, or
    /// needed by a castling right that standard notation cannot write.
    pub fn chess960(&self) -> bool {
        self.setup.castling_notation.is_chess960() || self.castling_needs_chess960()
    }

    /// Whether a castling right is not a standard castle: its king is off the e-file or its
    /// rook out of the corner.
    pub fn castling_needs_chess960(&self) -> bool {
        self.setup.castling_rooks.into_iter().any(|rook| {
            Color::of_back_rank(rook.rank()).is_some_and(|color| {
                self.setup
                    .king_file_on_back_rank(color)
                    .is_some_and(|file| {
                        CastlingSquares::new(Square::from_coords(file, rook.rank()), rook)
                            != CastlingSquares::standard(color, rook.file() > file)
                    })
            })
        })
    }

    /// Writes castling in Shredder-FEN and king-to-rook moves, or in standard notation.
    pub fn set_chess960(&mut self, on: bool) {
        self.edit(|setup| {
            setup.castling_notation = if on {
                CastlingNotation::Shredder
            } else {
                CastlingNotation::Standard
            };
        });
    }

    /// The rooks of `color` that could hold a castling right: on its back rank with its king,
    /// by file.
    pub fn castling_candidates(&self, color: Color) -> Vec<Square> {
        (0..8)
            .map(|file| Square::from_coords(file, color.back_rank()))
            .filter(|&square| castling_rook_stands(&self.setup, square))
            .collect()
    }

    /// The rook holding the castling right on the same side of its king as `rook`, other than
    /// `rook`: the one a grant on `rook` replaces.
    pub fn castling_rival(&self, rook: Square) -> Option<Square> {
        let color = Color::of_back_rank(rook.rank())?;
        let king = self.setup.king_file_on_back_rank(color)?;
        let king_side = rook.file() > king;
        self.setup.castling_rooks.into_iter().find(|&other| {
            other != rook && other.rank() == rook.rank() && (other.file() > king) == king_side
        })
    }

    /// Grants or revokes the castling right of the rook on `rook`. A king castles with one rook
    /// on each side, so a grant takes the right from the other rook on that side.
    pub fn set_castling_right(&mut self, rook: Square, granted: bool) {
        let rival = self.castling_rival(rook);
        self.edit(|setup| {
            if granted {
                if let Some(rival) = rival {
                    setup.castling_rooks = setup.castling_rooks.without(rival);
                }
                setup.castling_rooks = setup.castling_rooks.with(rook);
            } else {
                setup.castling_rooks = setup.castling_rooks.without(rook);
            }
        });
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
        self.validity = validate(&self.setup);
    }
}

/// The position, or why the setup is none.
fn validate(setup: &Setup) -> Result<Position, String> {
    Position::from_setup(setup).map_err(|err| format!("illegal position: {err}"))
}

fn castling_available(setup: &Setup, color: Color, king_side: bool) -> bool {
    let squares = CastlingSquares::standard(color, king_side);
    setup.board[squares.king_from.index()] == Some(Piece::new(color, Role::King))
        && setup.board[squares.rook_from.index()] == Some(Piece::new(color, Role::Rook))
}

/// Whether a castling right on `rook` still has its rook, and its king on the same back rank.
fn castling_rook_stands(setup: &Setup, rook: Square) -> bool {
    Color::of_back_rank(rook.rank()).is_some_and(|color| {
        setup.board[rook.index()] == Some(Piece::new(color, Role::Rook))
            && setup.king_file_on_back_rank(color).is_some()
    })
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
    fn adjacent_kings_are_named_as_such() {
        let editor = Editor::from_fen("8/8/8/8/8/8/3kK3/8 w - - 0 1");
        assert_eq!(
            editor.error(),
            Some("illegal position: the kings stand on adjacent squares (e2 and d2)")
        );
    }

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
    fn the_chess960_toggle_rewrites_castling_in_shredder_fen() {
        let mut editor = Editor::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert!(!editor.chess960());
        editor.set_chess960(true);
        assert!(editor.chess960());
        assert_eq!(editor.fen_text(), "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1");
        editor.set_chess960(false);
        assert_eq!(editor.fen_text(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    }

    #[test]
    fn a_king_off_the_e_file_with_castling_rights_needs_chess960() {
        let mut editor = Editor::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        editor.edit(|setup| {
            setup.board[Square::E1.index()] = None;
            setup.board[Square::F1.index()] = Some(Piece::new(Color::White, Role::King));
        });
        assert!(editor.castling_needs_chess960());
        assert!(editor.chess960());
        assert_eq!(
            editor.position().map(|p| p.notation()),
            Some(CastlingNotation::XFen)
        );
        editor.set_castling_right(Square::H1, false);
        editor.set_castling_right(Square::A1, false);
        assert!(!editor.chess960());
    }

    #[test]
    fn castling_candidates_are_the_rooks_beside_their_king() {
        let editor = Editor::from_fen("1r2k1r1/8/8/8/8/8/R7/1RK2RR1 w - - 0 1");
        assert_eq!(
            editor.castling_candidates(Color::White),
            vec![Square::B1, Square::F1, Square::G1]
        );
        assert_eq!(
            editor.castling_candidates(Color::Black),
            vec![Square::B8, Square::G8]
        );
    }

    #[test]
    fn a_grant_replaces_the_right_on_the_same_side_of_the_king() {
        let mut editor = Editor::from_fen("4k3/8/8/8/8/8/8/1RK2RR1 w GB - 0 1");
        assert_eq!(editor.castling_rival(Square::F1), Some(Square::G1));
        assert_eq!(editor.castling_rival(Square::B1), None);
        editor.set_castling_right(Square::F1, true);
        assert_eq!(editor.fen_text(), "4k3/8/8/8/8/8/8/1RK2RR1 w FB - 0 1");
        assert!(editor.position().is_some());
        editor.set_castling_right(Square::B1, false);
        assert_eq!(editor.fen_text(), "4k3/8/8/8/8/8/8/1RK2RR1 w F - 0 1");
    }

    #[test]
    fn ep_candidates_follow_the_pawns() {
        let editor = Editor::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1");
        assert_eq!(editor.ep_candidates(), vec![Square::parse("d6").unwrap()]);
    }
}
