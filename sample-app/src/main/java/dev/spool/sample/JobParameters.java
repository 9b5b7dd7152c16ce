package dev.spool.sample;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One point of the parameter sweep: an ensemble of particles following an Ornstein-Uhlenbeck
 * process {@code dx = theta (mu - x) dt + sigma dW}, with its own random seed.
 */
record JobParameters(String id, double theta, double mu, double sigma, double dt, long seed) {

  static final double DT = 0.01;
  private static final long SEED_BASE = 0x5EED_2026_0000L;

  /** The parameters of job {@code index}: a grid over theta, sigma and mu. */
  static JobParameters sweep(int index) {
    double theta = 0.5 + 0.5 * (index % 4);
    double sigma = 0.1 + 0.1 * ((index / 4) % 4);
    double mu = -1.0 + (index / 16) % 3;
    return new JobParameters(idOf(index), theta, mu, sigma, DT, SEED_BASE + index);
  }

  static String idOf(int index) {
    return String.format(Locale.ROOT, "job-%03d", index);
  }

  Map<String, Object> toMap() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("theta", theta);
    map.put("mu", mu);
    map.put("sigma", sigma);
    map.put("dt", dt);
    map.put("seed", seed);
    return map;
  }

  static JobParameters fromMap(String id, Map<?, ?> map) {
    return new JobParameters(
        id,
        Documents.number(map, "parameters.theta").doubleValue(),
        Documents.number(map, "parameters.mu").doubleValue(),
        Documents.number(map, "parameters.sigma").doubleValue(),
        Documents.number(map, "parameters.dt").doubleValue(),
        Documents.number(map, "parameters.seed").longValue());
  }
}
