package dev.spool.sample;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The state of one job: an ensemble of particles, the random generator's state and running
 * statistics of the ensemble mean (Welford). It converts to and from the job's document, and the
 * conversion is exact (doubles and longs survive a JSON round trip), so a job resumed from its
 * document continues exactly as if it had never stopped.
 *
 * <p>Not thread-safe; one job is advanced by one thread at a time.
 */
final class JobState {
  static final int PARTICLES = 8;
  static final int RECENT = 4;

  private final JobParameters parameters;
  private final SplitMix64 random;
  private final double[] positions;
  private final double[] recentMeans;
  private long step;
  private long count;
  private double mean;
  private double m2;
  private double min;
  private double max;

  private JobState(JobParameters parameters, long randomState, double[] positions,
      double[] recentMeans) {
    this.parameters = parameters;
    this.random = new SplitMix64(randomState);
    this.positions = positions;
    this.recentMeans = recentMeans;
  }

  /** A job at step 0: particles spread evenly around zero, no statistics yet. */
  static JobState start(JobParameters parameters) {
    double[] positions = new double[PARTICLES];
    for (int i = 0; i < PARTICLES; i++) {
      positions[i] = (i - (PARTICLES - 1) / 2.0) / PARTICLES;
    }
    JobState state = new JobState(parameters, parameters.seed(), positions, new double[RECENT]);
    state.min = Double.MAX_VALUE;
    state.max = -Double.MAX_VALUE;
    return state;
  }

  /** Advances the ensemble by one time step and updates the statistics. */
  void advance() {
    double theta = parameters.theta();
    double mu = parameters.mu();
    double dt = parameters.dt();
    double noise = parameters.sigma() * StrictMath.sqrt(dt);
    double sum = 0;
    for (int i = 0; i < PARTICLES; i++) {
      positions[i] += theta * (mu - positions[i]) * dt + noise * random.nextGaussian();
      sum += positions[i];
    }
    double ensembleMean = sum / PARTICLES;
    count++;
    double delta = ensembleMean - mean;
    mean += delta / count;
    m2 += delta * (ensembleMean - mean);
    min = Math.min(min, ensembleMean);
    max = Math.max(max, ensembleMean);
    System.arraycopy(recentMeans, 1, recentMeans, 0, RECENT - 1);
    recentMeans[RECENT - 1] = ensembleMean;
    step++;
  }

  long step() {
    return step;
  }

  String id() {
    return parameters.id();
  }

  double time() {
    return step * parameters.dt();
  }

  double variance() {
    return count > 1 ? m2 / (count - 1) : 0.0;
  }

  /** The job's document, as saved to {@code jobs/<id>/doc.json}. */
  Map<String, Object> toDocument() {
    Map<String, Object> statistics = new LinkedHashMap<>();
    statistics.put("count", count);
    statistics.put("mean", mean);
    statistics.put("m2", m2);
    statistics.put("variance", variance());
    statistics.put("min", min);
    statistics.put("max", max);
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("job", parameters.id());
    doc.put("parameters", parameters.toMap());
    doc.put("step", step);
    doc.put("time", time());
    doc.put("randomState", random.state());
    doc.put("positions", positions.clone());
    doc.put("statistics", statistics);
    doc.put("recentMeans", recentMeans.clone());
    return doc;
  }

  /** Restores a job from its document; throws {@link IllegalStateException} naming a bad field. */
  static JobState fromDocument(String expectedId, Map<?, ?> doc) {
    Object id = Documents.field(doc, "job");
    if (!expectedId.equals(id)) {
      throw new IllegalStateException("document of " + expectedId + " names job " + id);
    }
    JobParameters parameters =
        JobParameters.fromMap(expectedId, Documents.object(doc, "parameters"));
    JobState state = new JobState(
        parameters,
        Documents.number(doc, "randomState").longValue(),
        Documents.doubles(doc, "positions", PARTICLES),
        Documents.doubles(doc, "recentMeans", RECENT));
    state.step = Documents.number(doc, "step").longValue();
    Map<?, ?> statistics = Documents.object(doc, "statistics");
    state.count = Documents.number(statistics, "statistics.count").longValue();
    state.mean = Documents.number(statistics, "statistics.mean").doubleValue();
    state.m2 = Documents.number(statistics, "statistics.m2").doubleValue();
    state.min = Documents.number(statistics, "statistics.min").doubleValue();
    state.max = Documents.number(statistics, "statistics.max").doubleValue();
    return state;
  }

  /** The record emitted for the current step. */
  Map<String, Object> record() {
    double ensembleMean = recentMeans[RECENT - 1];
    Map<String, Object> record = new LinkedHashMap<>();
    record.put("job", parameters.id());
    record.put("step", step);
    record.put("time", time());
    record.put("ensembleMean", ensembleMean);
    record.put("runningMean", mean);
    record.put("variance", variance());
    record.put("positions", positions.clone());
    return record;
  }

  /** The log line for the current step (no timestamp: runs compare line by line). */
  String logLine() {
    StringBuilder line = new StringBuilder(96).append(parameters.id()).append(" step=").append(step);
    Fixed.append(line.append(" t="), time(), 2);
    Fixed.append(line.append(" mean="), mean, 6);
    Fixed.append(line.append(" var="), variance(), 6);
    Fixed.append(line.append(" min="), min, 6);
    Fixed.append(line.append(" max="), max, 6);
    return line.toString();
  }
}
