//! TT
