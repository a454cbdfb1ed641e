//! Protocol front ends (UCI, CECP/XBoard): to be written.
