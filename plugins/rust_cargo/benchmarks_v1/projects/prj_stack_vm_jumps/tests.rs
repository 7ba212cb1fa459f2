use crate::instr::{parse, Instr};
use crate::machine::{Machine, VmError};

fn run(src: &str, max_steps: usize) -> Result<Vec<i64>, VmError> {
    Machine { max_steps }.run(&parse(src).unwrap())
}

const COUNTDOWN: &str = "push 3\ndup\nprint\npush 1\nsub\ndup\njz 8\njmp 1\nhalt\n";

#[test]
fn countdown_loop() {
    assert_eq!(run(COUNTDOWN, 1000), Ok(vec![3, 2, 1]));
}

#[test]
fn step_limit_counts_every_instruction() {
    // 1 push + 3 iterations of 7 instructions, minus the final jmp, + halt = 22
    assert_eq!(run(COUNTDOWN, 22), Ok(vec![3, 2, 1]));
    assert_eq!(run(COUNTDOWN, 21), Err(VmError::StepLimit));
    assert_eq!(run("jmp 0", 50), Err(VmError::StepLimit));
}

#[test]
fn underflow_reports_index() {
    assert_eq!(run("push 1\nadd", 10), Err(VmError::StackUnderflow { at: 1 }));
    assert_eq!(run("print", 10), Err(VmError::StackUnderflow { at: 0 }));
    assert_eq!(run("push 0\njz 2\njz 0", 10), Err(VmError::StackUnderflow { at: 2 }));
}

#[test]
fn jumps_and_their_targets() {
    assert_eq!(run("push 5\njmp 3\nprint\nhalt", 10), Ok(vec![]));
    assert_eq!(run("push 7\nprint\njmp 3", 10), Ok(vec![7]));
    assert_eq!(run("push 0\njz 9\nhalt", 10), Err(VmError::BadJump { at: 1, target: 9 }));
    assert_eq!(run("push 1\njz 9\npush 2\nprint", 10), Ok(vec![2]));
}

#[test]
fn overflow_and_empty_program() {
    let big = [Instr::Push(i64::MAX), Instr::Push(1), Instr::Add];
    assert_eq!(Machine { max_steps: 10 }.run(&big), Err(VmError::Overflow { at: 2 }));
    assert_eq!(Machine { max_steps: 0 }.run(&[]), Ok(vec![]));
    assert_eq!(run("push -2\npush 3\nsub\nprint", 4), Ok(vec![-5]));
}
