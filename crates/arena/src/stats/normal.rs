//! Standard normal distribution helpers.
//!
//! `std` has no `erf`, and pulling in a maths crate for two functions is not
//! worth it: the approximations below are far more precise than the
//! statistical noise of any chess match.

/// Cumulative distribution function of the standard normal distribution.
///
/// Accurate to about 1e-7 absolute. NaN maps to NaN.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// Quantile (inverse CDF) of the standard normal distribution.
///
/// Returns negative/positive infinity for `p` equal to 0/1 and NaN for `p`
/// outside `[0, 1]`. Uses Acklam's rational approximation (relative error
/// below 1.2e-9), which is plenty for confidence intervals.
pub fn normal_quantile(p: f64) -> f64 {
    if !(0.0..=1.0).contains(&p) {
        return f64::NAN;
    }
    if p == 0.0 {
        return f64::NEG_INFINITY;
    }
    if p == 1.0 {
        return f64::INFINITY;
    }

    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] =
        [7.784_695_709_041_462e-3, 3.224_671_290_700_398e-1, 2.445_134_137_142_996, 3.754_408_661_907_416];
    const P_LOW: f64 = 0.02425;

    // The tails use a different rational function in sqrt(-2 ln p); the
    // upper tail mirrors the lower one.
    let tail = |q: f64| {
        let q = (-2.0 * q.ln()).sqrt();
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    if p < P_LOW {
        tail(p)
    } else if p > 1.0 - P_LOW {
        -tail(1.0 - p)
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

/// Complementary error function (Chebyshev fit, fractional error < 1.2e-7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let ans = t * poly.exp();
    if x >= 0.0 {
        ans
    } else {
        2.0 - ans
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cdf_known_values() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(1.959_963_984_540_054) - 0.975).abs() < 1e-7);
        assert!((normal_cdf(-1.0) - 0.158_655_253_931_457).abs() < 1e-7);
        assert!(normal_cdf(40.0) <= 1.0);
        assert!(normal_cdf(-40.0) >= 0.0);
        assert!(normal_cdf(f64::NAN).is_nan());
    }

    #[test]
    fn quantile_known_values() {
        assert!((normal_quantile(0.975) - 1.959_963_984_540_054).abs() < 1e-8);
        assert!((normal_quantile(0.5)).abs() < 1e-12);
        assert!((normal_quantile(0.001) + 3.090_232_306_167_813).abs() < 1e-8);
        assert_eq!(normal_quantile(0.0), f64::NEG_INFINITY);
        assert_eq!(normal_quantile(1.0), f64::INFINITY);
        assert!(normal_quantile(1.5).is_nan());
        assert!(normal_quantile(f64::NAN).is_nan());
    }

    #[test]
    fn quantile_inverts_cdf() {
        for i in 1..1000 {
            let p = f64::from(i) / 1000.0;
            assert!((normal_cdf(normal_quantile(p)) - p).abs() < 1e-6, "p={p}");
        }
    }
}
