//! The one small seeded random generator every part of Bastion uses: self-play
//! openings, training shuffles, book choices, random test positions.
//!
//! Runs must repeat exactly from their seed, across builds and machines, so the
//! generator is a fixed, documented algorithm (xorshift64*, Vigna 2016) rather than an
//! OS-seeded one. It is not for cryptography.

/// SplitMix64's output function: a well-mixed 64-bit value from any input, usable in
/// `const` context (Zobrist key tables are built with it at compile time).
#[inline]
pub const fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A deterministic xorshift64* generator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`; every seed, 0 included, gives a valid, distinct stream.
    pub fn new(seed: u64) -> Rng {
        // Multiplying by an odd constant spreads small seeds over all bits; `| 1`
        // keeps the state non-zero, the one state xorshift cannot leave.
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// An index in `0..n`; `n` must be positive.
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0, "Rng::below(0)");
        (self.next_u64() % n as u64) as usize
    }

    /// A float in `[0, 1)` with 24 random bits.
    #[inline]
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// A float in `[0, 1)` with 53 random bits.
    #[inline]
    pub fn unit_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A uniform float in `-scale..scale`.
    #[inline]
    pub fn symmetric(&mut self, scale: f32) -> f32 {
        (self.unit() * 2.0 - 1.0) * scale
    }

    /// Shuffles `items` in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }

    /// A random element of `items`, or `None` when it is empty.
    pub fn choose<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            None
        } else {
            Some(&items[self.below(items.len())])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_repeat_and_differ_by_seed() {
        let a: Vec<u64> = (0..8).scan(Rng::new(7), |r, _| Some(r.next_u64())).collect();
        let b: Vec<u64> = (0..8).scan(Rng::new(7), |r, _| Some(r.next_u64())).collect();
        let c: Vec<u64> = (0..8).scan(Rng::new(8), |r, _| Some(r.next_u64())).collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
        let mut zero = Rng::new(0);
        assert_ne!(zero.next_u64(), zero.next_u64());
    }

    #[test]
    fn ranges_hold() {
        let mut r = Rng::new(1);
        for n in 1..50 {
            assert!(r.below(n) < n);
            let u = r.unit();
            assert!((0.0..1.0).contains(&u));
            let d = r.unit_f64();
            assert!((0.0..1.0).contains(&d));
            assert!(r.symmetric(0.5).abs() <= 0.5);
        }
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut v: Vec<u32> = (0..100).collect();
        Rng::new(3).shuffle(&mut v);
        let mut s = v.clone();
        s.sort_unstable();
        assert_eq!(s, (0..100).collect::<Vec<_>>());
        assert_ne!(v, s);
    }

    #[test]
    fn splitmix_matches_reference_value() {
        // SplitMix64 seeded with 0: first output of the reference implementation.
        assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
    }
}
