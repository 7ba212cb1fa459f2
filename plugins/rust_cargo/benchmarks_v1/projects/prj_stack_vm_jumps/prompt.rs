// Task: implement `Machine::run(&self, program: &[Instr]) -> Result<Vec<i64>, VmError>`
// for the instructions in `crate::instr`. Execution starts at index 0 with
// an empty stack and stops at `Halt` or when it runs past the last
// instruction; it returns everything `Print`ed, in order. Errors:
//   StackUnderflow { at }   an instruction at index `at` lacks operands
//   BadJump { at, target }  a jump whose target is > program.len()
//                           (jumping to exactly len simply ends the program)
//   Overflow { at }         Add or Sub overflowed i64
//   StepLimit               more than `max_steps` instructions would execute
// (every executed instruction, Halt included, is one step).
use crate::instr::Instr;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VmError {
    StackUnderflow { at: usize },
    BadJump { at: usize, target: usize },
    Overflow { at: usize },
    StepLimit,
}

pub struct Machine {
    pub max_steps: usize,
}
