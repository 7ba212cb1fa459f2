// Task: every department of a company spends from one shared company budget,
// as the doc comments say. The code compiles but does not behave as described.
// Fix it and return the whole corrected file.
use std::cell::RefCell;
use std::rc::Rc;

#[derive(Debug)]
struct Budget {
    remaining: u64,
}

#[derive(Debug)]
pub struct Company {
    budget: Rc<RefCell<Budget>>,
}

#[derive(Debug)]
pub struct Department {
    pub name: String,
    budget: Rc<RefCell<Budget>>,
    spent: u64,
}

impl Company {
    pub fn new(total: u64) -> Company {
        Company { budget: Rc::new(RefCell::new(Budget { remaining: total })) }
    }

    /// A department that spends from this company's budget.
    pub fn department(&self, name: &str) -> Department {
        Department { name: name.to_string(), budget: Rc::clone(&self.budget), spent: 0 }
    }

    /// What is left of the company budget.
    pub fn remaining(&self) -> u64 {
        self.budget.borrow().remaining
    }
}

impl Department {
    /// Spends `amount` from the company budget. Returns false, spending
    /// nothing, if the company has less than `amount` left.
    pub fn spend(&mut self, amount: u64) -> bool {
        let mut budget = self.budget.borrow_mut();
        if budget.remaining < amount {
            return false;
        }
        budget.remaining -= amount;
        self.spent += amount;
        true
    }

    /// What this department has spent so far.
    pub fn spent(&self) -> u64 {
        self.spent
    }
}
