use std::collections::{BTreeMap, BTreeSet};

/// Orders build targets so that each comes after all of its prerequisites.
/// `deps` maps a target to its prerequisites; a prerequisite that is not a
/// key is a target without prerequisites. Among the targets ready at the same
/// time the alphabetically smallest is built first. When there is a cycle,
/// the error lists the targets that could not be built, sorted.
pub fn build_order(deps: &BTreeMap<&str, Vec<&str>>) -> Result<Vec<String>, Vec<String>> {
    let mut waiting: BTreeMap<&str, usize> = BTreeMap::new();
    let mut dependents: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (&target, prerequisites) in deps {
        waiting.entry(target).or_insert(0);
        for &p in prerequisites {
            waiting.entry(p).or_insert(0);
        }
    }
    for (&target, prerequisites) in deps {
        let unique: BTreeSet<&str> = prerequisites.iter().copied().collect();
        for p in unique {
            *waiting.entry(target).or_insert(0) += 1;
            dependents.entry(p).or_default().push(target);
        }
    }
    let mut ready: BTreeSet<&str> = waiting.iter().filter(|(_, &n)| n == 0).map(|(&t, _)| t).collect();
    let mut order = Vec::new();
    while let Some(&next) = ready.iter().next() {
        ready.remove(next);
        order.push(next.to_string());
        if let Some(children) = dependents.get(next) {
            for &child in children {
                if let Some(n) = waiting.get_mut(child) {
                    *n -= 1;
                    if *n == 0 {
                        ready.insert(child);
                    }
                }
            }
        }
    }
    if order.len() == waiting.len() {
        Ok(order)
    } else {
        Err(waiting.iter().filter(|(_, &n)| n > 0).map(|(&t, _)| t.to_string()).collect())
    }
}
