//! Arbitrary lines as a CECP/XBoard session (`varia xboard`): `new`,
//! `variant`, `setboard`, moves, `force`, `go`, clocks, `undo`, `remove`...
//! must be answered line by line and end without a panic. Lines that would
//! only exhaust memory or threads are left out, and each session's table
//! is mapped apart from the fuzzer's own heap (see `protocol_lines`).

#![no_main]

#[path = "protocol_lines.rs"]
mod protocol_lines;

use libfuzzer_sys::fuzz_target;
use std::io::{sink, Cursor};

fuzz_target!(init: protocol_lines::map_large_allocations(), |data: &[u8]| {
    let Some(input) = protocol_lines::session_input(data) else {
        return;
    };
    search::protocol::xboard::run(Cursor::new(input.into_bytes()), sink())
        .expect("writing to a sink cannot fail");
});
