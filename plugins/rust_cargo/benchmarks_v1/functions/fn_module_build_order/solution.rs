/// Computes an order in which to build `count` modules numbered `0..count`.
///
/// Each pair `(a, b)` in `deps` means that module `a` depends on module `b`,
/// so `b` must be built before `a`. Whenever several modules are ready to be
/// built (all their dependencies are built), the one with the smallest number
/// is built next, which makes the order unique.
///
/// Returns `None` if the dependencies contain a cycle (including a module
/// that depends on itself) or mention a module number `>= count`.
pub fn build_order(count: usize, deps: &[(usize, usize)]) -> Option<Vec<usize>> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); count];
    let mut unbuilt_deps = vec![0usize; count];
    for &(a, b) in deps {
        if a >= count || b >= count {
            return None;
        }
        dependents[b].push(a);
        unbuilt_deps[a] += 1;
    }
    let mut ready: BinaryHeap<Reverse<usize>> =
        (0..count).filter(|&m| unbuilt_deps[m] == 0).map(Reverse).collect();
    let mut order = Vec::with_capacity(count);
    while let Some(Reverse(module)) = ready.pop() {
        order.push(module);
        for &dependent in &dependents[module] {
            unbuilt_deps[dependent] -= 1;
            if unbuilt_deps[dependent] == 0 {
                ready.push(Reverse(dependent));
            }
        }
    }
    if order.len() == count {
        Some(order)
    } else {
        None
    }
}
