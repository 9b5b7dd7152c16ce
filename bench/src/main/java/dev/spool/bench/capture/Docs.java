package dev.spool.bench.capture;

import java.util.LinkedHashMap;
import java.util.Map;

/** The documents the capture benchmarks write: the sample app's job document and the scientific one of issue 12. */
final class Docs {

    private Docs() {}

    /** Shaped like the sample app's {@code JobState.toDocument()} (8 positions, 4 recent means). */
    static Map<String, Object> sampleApp(long step) {
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("id", "job-07");
        parameters.put("theta", 0.7);
        parameters.put("mu", 0.25);
        parameters.put("sigma", 0.3);
        parameters.put("dt", 0.01);
        parameters.put("seed", 8_271_263_491L);
        parameters.put("steps", 2000);
        Map<String, Object> statistics = new LinkedHashMap<>();
        statistics.put("count", step);
        statistics.put("mean", 0.2481312 + step * 1e-7);
        statistics.put("m2", 12.44178123 + step);
        statistics.put("variance", 0.0912331);
        statistics.put("min", -0.812331231);
        statistics.put("max", 1.0232112);
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("job", "job-07");
        doc.put("parameters", parameters);
        doc.put("step", step);
        doc.put("time", step * 0.01);
        doc.put("randomState", -7_312_877_641_233_101L + step);
        double[] positions = new double[8];
        for (int i = 0; i < positions.length; i++) {
            positions[i] = Math.sin(step + i) * 0.731 + i * 1e-3;
        }
        doc.put("positions", positions);
        doc.put("statistics", statistics);
        doc.put("recentMeans", new double[] {0.21 + step * 1e-9, 0.2211, 0.23311, 0.2412});
        return doc;
    }

    /** The scientific document: parameters, 32 doubles of state, statistics. */
    static Map<String, Object> science(int file, long step) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("model", "lorenz96-" + file);
        params.put("forcing", 8.0 + file * 0.01);
        params.put("dt", 0.005);
        params.put("seed", 1_000_003L * file);
        double[] state = new double[32];
        double sum = 0;
        for (int i = 0; i < state.length; i++) {
            state[i] = Math.sin(step * 0.013 + i * 0.37 + file) * 4.2 + Math.cos(step * 0.007 * i);
            sum += state[i];
        }
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("mean", sum / state.length);
        stats.put("energy", sum * sum * 0.5);
        stats.put("steps", step);
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("file", file);
        doc.put("step", step);
        doc.put("params", params);
        doc.put("state", state);
        doc.put("stats", stats);
        return doc;
    }
}
