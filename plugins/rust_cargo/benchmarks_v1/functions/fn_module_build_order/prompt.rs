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
