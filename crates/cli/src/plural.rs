//! Counts with their noun in the right number: "1 thread", "2 threads", "1 ply".

/// `n` followed by `one` when `n` is 1, else by `many`.
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn one_is_singular_everything_else_plural() {
        assert_eq!(count(1, "thread", "threads"), "1 thread");
        assert_eq!(count(0, "thread", "threads"), "0 threads");
        assert_eq!(count(2, "ply", "plies"), "2 plies");
        assert_eq!(count(1, "move left", "moves left"), "1 move left");
    }
}
