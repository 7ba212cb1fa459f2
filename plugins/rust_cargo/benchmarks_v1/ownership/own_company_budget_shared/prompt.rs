// Task: every department of a company spends from one shared company budget,
// as the doc comments say. The code compiles but does not behave as described.
// Fix it and return the whole corrected file.
#[derive(Debug, Clone)]
struct Budget {
    remaining: u64,
}

#[derive(Debug)]
pub struct Company {
    budget: Budget,
}

#[derive(Debug)]
pub struct Department {
    pub name: String,
    budget: Budget,
    spent: u64,
}

impl Company {
    pub fn new(total: u64) -> Company {
        Company { budget: Budget { remaining: total } }
    }

    /// A department that spends from this company's budget.
    pub fn department(&self, name: &str) -> Department {
        Department { name: name.to_string(), budget: self.budget.clone(), spent: 0 }
    }

    /// What is left of the company budget.
    pub fn remaining(&self) -> u64 {
        self.budget.remaining
    }
}

impl Department {
    /// Spends `amount` from the company budget. Returns false, spending
    /// nothing, if the company has less than `amount` left.
    pub fn spend(&mut self, amount: u64) -> bool {
        if self.budget.remaining < amount {
            return false;
        }
        self.budget.remaining -= amount;
        self.spent += amount;
        true
    }

    /// What this department has spent so far.
    pub fn spent(&self) -> u64 {
        self.spent
    }
}
