package dev.spool.sample;

/**
 * A tiny deterministic random generator (SplitMix64, Steele, Lea and Flood 2014) whose whole state
 * is one {@code long}, so a job can save it in its document and resume exactly where it left off.
 * Not thread-safe: one instance belongs to one job, and a job runs on one thread at a time.
 */
final class SplitMix64 {
  private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;
  private static final double TWO_POW_MINUS_53 = 0x1.0p-53;

  private long state;

  SplitMix64(long state) {
    this.state = state;
  }

  long state() {
    return state;
  }

  long nextLong() {
    long z = (state += GOLDEN_GAMMA);
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** Uniform in (0, 1]: never 0, so its logarithm is finite. */
  double nextOpenDouble() {
    return ((nextLong() >>> 11) + 1) * TWO_POW_MINUS_53;
  }

  /**
   * A standard normal deviate (Box-Muller). {@link StrictMath} keeps the result bit-for-bit
   * the same in the interpreter and in JIT-compiled code, which {@link Math#log} does not promise.
   */
  double nextGaussian() {
    double u1 = nextOpenDouble();
    double u2 = nextOpenDouble();
    return StrictMath.sqrt(-2.0 * StrictMath.log(u1)) * StrictMath.cos(2.0 * StrictMath.PI * u2);
  }
}
