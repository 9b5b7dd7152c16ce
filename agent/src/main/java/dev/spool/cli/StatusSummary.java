package dev.spool.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * The agent's JSON answer ({@code status}, {@code flush}) as a few lines a person reads at a glance;
 * {@code --json} prints the answer itself. Unknown or missing fields are left out, so an agent of
 * another version still gets a summary.
 */
final class StatusSummary {
    private static final ObjectMapper JSON = new ObjectMapper();

    private StatusSummary() {}

    static String of(String pid, String answer) {
        JsonNode a;
        try {
            a = JSON.readTree(answer);
        } catch (IOException e) {
            return answer; // not JSON: show it as it came
        }
        StringBuilder out = new StringBuilder();
        out.append("Spool ").append(a.path("version").asText("?")).append(" in process ").append(pid)
                .append(": routing ").append(a.path("routingEnabled").asBoolean(true) ? "on" : "OFF (kill switch)").append('\n');
        if (a.has("flushed")) {
            line(out, "flushed", a.path("filesWritten").asLong() + " buffered files written; routed logs and the event file drained");
        }
        List<String> classes = texts(a.path("instrumentedClasses"));
        line(out, "instrumented", classes.size() + (classes.size() == 1 ? " class" : " classes")
                + (classes.isEmpty() ? "" : ": " + abbreviate(classes, 4)));
        List<String> logs = texts(a.path("routedStreams"));
        line(out, "routed logs", logs.isEmpty() ? "none" : String.join(", ", logs));
        JsonNode b = a.path("buffer");
        if (!b.path("started").asBoolean(false)) {
            line(out, "buffer", "not started (no buffered write yet)");
        } else {
            line(out, "buffer", b.path("entries").asLong() + " files held, " + b.path("dirtyEntries").asLong()
                    + " not yet written (" + bytes(b.path("estimatedBytes").asLong()) + ")");
            line(out, "", b.path("writesAbsorbed").asLong() + " writes absorbed, " + b.path("readsServed").asLong()
                    + " reads served, " + b.path("filesWritten").asLong() + " files written in "
                    + b.path("flushes").asLong() + " flushes");
            line(out, "", b.path("conflicts").asLong() + " conflicts, " + b.path("backpressureWaits").asLong()
                    + " waits at the memory bound (" + b.path("backpressureMillis").asLong() + " ms)");
            if (!b.path("lastError").asText("").isEmpty()) {
                line(out, "", "last error: " + b.path("lastError").asText());
            }
        }
        JsonNode j = a.path("jacksonCapture");
        if (j.isObject()) {
            line(out, "jackson", j.path("captured").asLong() + " writes captured, " + j.path("encodedAtCall").asLong()
                    + " encoded at the call; reads from tokens " + j.path("tokenReads").asLong() + ", from bytes "
                    + j.path("byteReads").asLong());
        }
        String lastError = a.path("lastError").asText("");
        line(out, "errors", a.path("errors").asLong() + (lastError.isEmpty() ? "" : ", last: " + lastError));
        if (a.has("error")) {
            line(out, "problem", a.path("error").asText());
        }
        out.append("(every field and the configuration: status ").append(pid).append(" --json)");
        return out.toString();
    }

    private static void line(StringBuilder out, String label, String text) {
        out.append(String.format(Locale.ROOT, "  %-13s %s%n", label.isEmpty() ? "" : label + ":", text));
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        for (Iterator<JsonNode> it = array.elements(); it.hasNext(); ) {
            out.add(it.next().asText());
        }
        return out;
    }

    private static String abbreviate(List<String> names, int max) {
        List<String> shown = new ArrayList<>();
        for (String n : names.subList(0, Math.min(max, names.size()))) {
            shown.add(n.substring(n.lastIndexOf('.') + 1));
        }
        return String.join(", ", shown) + (names.size() > max ? ", ..." : "");
    }

    private static String bytes(long n) {
        if (n < 1024) {
            return n + " bytes";
        }
        return n < 1024 * 1024 ? String.format(Locale.ROOT, "%.1f KiB", n / 1024.0)
                : String.format(Locale.ROOT, "%.1f MiB", n / (1024.0 * 1024));
    }
}
