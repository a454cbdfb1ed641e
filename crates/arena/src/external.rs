//! External engines over UCI or CECP (XBoard).

use crate::player::Player;
use crate::runner::EngineSpec;

/// Starts an external engine from its settings (`cmd=`, `args=`, `dir=`,
/// `proto=uci|xboard`, `option.NAME=VALUE`, `initstr=`, `timeout=`).
pub fn spawn(spec: &EngineSpec) -> Result<Box<dyn Player>, String> {
    let _ = spec;
    Err("external engines are not implemented yet".into())
}
