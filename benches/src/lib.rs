//! Holder package for the criterion benches in `benches/`.
