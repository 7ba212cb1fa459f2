//! A tiny stack machine for scripting device tests.
pub mod instr;
pub mod machine;
