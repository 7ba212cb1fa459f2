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

impl Machine {
    pub fn run(&self, program: &[Instr]) -> Result<Vec<i64>, VmError> {
        let mut stack: Vec<i64> = Vec::new();
        let mut output = Vec::new();
        let mut pc = 0;
        let mut steps = 0;
        while pc < program.len() {
            if steps == self.max_steps {
                return Err(VmError::StepLimit);
            }
            steps += 1;
            let at = pc;
            let pop = |stack: &mut Vec<i64>| stack.pop().ok_or(VmError::StackUnderflow { at });
            let check_target = |target: usize| {
                if target > program.len() {
                    Err(VmError::BadJump { at, target })
                } else {
                    Ok(target)
                }
            };
            pc += 1;
            match program[at] {
                Instr::Push(v) => stack.push(v),
                Instr::Add | Instr::Sub => {
                    let b = pop(&mut stack)?;
                    let a = pop(&mut stack)?;
                    let r = if program[at] == Instr::Add { a.checked_add(b) } else { a.checked_sub(b) };
                    stack.push(r.ok_or(VmError::Overflow { at })?);
                }
                Instr::Dup => {
                    let top = *stack.last().ok_or(VmError::StackUnderflow { at })?;
                    stack.push(top);
                }
                Instr::Print => output.push(pop(&mut stack)?),
                Instr::Jump(target) => pc = check_target(target)?,
                Instr::JumpIfZero(target) => {
                    if pop(&mut stack)? == 0 {
                        pc = check_target(target)?;
                    }
                }
                Instr::Halt => break,
            }
        }
        Ok(output)
    }
}
