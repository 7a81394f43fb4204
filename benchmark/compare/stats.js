'use strict';
// Student's t distribution and Welch's two-sample t-test, for compare.
// No dependency: the t CDF comes from the regularized incomplete beta
// function, I_x(a, b), evaluated by its continued fraction (Numerical
// Recipes' betacf, modified Lentz), with ln Gamma from Lanczos (g = 7, n = 9).

const LANCZOS = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
  -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];

// ln Gamma(x) for x >= 0.5, which is all the t distribution needs here
// (a = df / 2 with df >= 1, b = 1 / 2).
function lnGamma(x) {
  x -= 1;
  let a = LANCZOS[0];
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i] / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

function betaContinuedFraction(a, b, x) {
  const TINY = 1e-300;
  let c = 1, d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    // Even step, then odd step, of the continued fraction.
    for (const aa of [(m * (b - m) * x) / ((a + m2 - 1) * (a + m2)),
      (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1))]) {
      d = 1 + aa * d;
      if (Math.abs(d) < TINY) d = TINY;
      c = 1 + aa / c;
      if (Math.abs(c) < TINY) c = TINY;
      d = 1 / d;
      h *= d * c;
      if (aa < 0 && Math.abs(d * c - 1) < 1e-15) return h;
    }
  }
  return h;
}

// Regularized incomplete beta I_x(a, b). The continued fraction converges
// fast for x < (a + 1) / (a + b + 2); above that, use I_x(a,b) = 1 - I_{1-x}(b,a).
function incompleteBeta(x, a, b) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(a, b, x)) / a;
  return 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b;
}

// P(T <= t) for T ~ t(df): the two tails together are I_{df/(df+t^2)}(df/2, 1/2).
function tCdf(t, df) {
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t > 0 ? 1 - tail : tail;
}

// The t with P(T <= t) = p, for p in (0.5, 1), by bisection on the CDF
// (monotonic; 200 halvings are far more than doubles resolve).
function tQuantile(p, df) {
  let lo = 0, hi = 1;
  while (tCdf(hi, df) < p) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (tCdf(mid, df) < p) lo = mid; else hi = mid;
  }
  return (lo + hi) / 2;
}

const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
const variance = (xs, m = mean(xs)) => xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1);

// Welch's t-test of mean(b) - mean(a), as R's t.test(b, a) (var.equal = FALSE).
// halfWidth(alpha) is the (1 - alpha) confidence interval's half-width of the
// difference of the means.
function welch(a, b) {
  const ma = mean(a), mb = mean(b);
  const qa = variance(a, ma) / a.length, qb = variance(b, mb) / b.length;
  const se = Math.sqrt(qa + qb);
  const df = (qa + qb) ** 2 / (qa ** 2 / (a.length - 1) + qb ** 2 / (b.length - 1));
  if (!(se > 0)) return { ma, mb, t: 0, df: NaN, p: 1, halfWidth: () => 0 }; // identical constant samples
  const t = (mb - ma) / se;
  const p = 2 * (1 - tCdf(Math.abs(t), df));
  return { ma, mb, t, df, p, halfWidth: (alpha) => tQuantile(1 - alpha / 2, df) * se };
}

// Known values: closed forms for df = 1 (Cauchy) and df = 2; the rest come
// from mpmath at 30 digits (betainc, findroot), including fractional
// df as Welch's test produces, and R's t.test(c(2,4,6,8,10), c(1,2,3,4,5)).
// Returns a list of failures (empty when all agree to 1e-9, relative).
function selfTest() {
  const w = welch([1, 2, 3, 4, 5], [2, 4, 6, 8, 10]);
  /* eslint-disable no-loss-of-precision -- the references as computed, to 18 digits */
  const checks = [
    ['tCdf(1, 1)', tCdf(1, 1), 0.75],
    ['tCdf(-3, 1)', tCdf(-3, 1), 0.5 + Math.atan(-3) / Math.PI],
    ['tCdf(0.5, 2)', tCdf(0.5, 2), 0.5 + 0.5 / (2 * Math.sqrt(2.25))],
    ['tCdf(3, 2)', tCdf(3, 2), 0.5 + 3 / (2 * Math.sqrt(11))],
    ['tCdf(2, 5)', tCdf(2, 5), 0.949030260585070815],
    ['tCdf(-0.7, 3.7)', tCdf(-0.7, 3.7), 0.262713026971588012],
    ['tCdf(40, 1.2)', tCdf(40, 1.2), 0.995995611854868796],
    ['tQuantile(0.975, 1)', tQuantile(0.975, 1), 12.7062047361746933],
    ['tQuantile(0.975, 10)', tQuantile(0.975, 10), 2.22813885198627422],
    ['tQuantile(0.995, 5)', tQuantile(0.995, 5), 4.03214298355522718],
    ['tQuantile(0.9995, 30)', tQuantile(0.9995, 30), 3.64595863504206281],
    ['tQuantile(0.975, 1e6)', tQuantile(0.975, 1e6), 1.95996635681410666],
    ['tQuantile(0.975, 7.5)', tQuantile(0.975, 7.5), 2.33303962686497403],
    ['tQuantile(0.9995, 2.3)', tQuantile(0.9995, 2.3), 22.0381157538040182],
    ['welch t', w.t, 1.89736659610102760],
    ['welch df', w.df, 5.88235294117647059],
    ['welch p', w.p, 0.107531194930627240],
    ['welch 95% half-width', w.halfWidth(0.05), 3.88774164373697521],
  ];
  /* eslint-enable no-loss-of-precision */
  return checks.filter(([, got, want]) => !(Math.abs(got - want) <= 1e-9 * Math.abs(want)))
    .map(([name, got, want]) => `${name} = ${got}, expected ${want}`);
}

module.exports = { tCdf, tQuantile, welch, mean, selfTest };
