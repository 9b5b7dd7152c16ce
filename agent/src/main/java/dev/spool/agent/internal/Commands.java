package dev.spool.agent.internal;

import dev.spool.buffer.BufferMetrics;
import dev.spool.agent.jackson.JacksonCaptures;
import dev.spool.buffer.SharedBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The agent's answers to the CLI ({@code status}, {@code flush}, {@code routing=on|off}), each a
 * JSON object. Reached through the boot bridge by a later {@code agentmain} in the same JVM.
 */
final class Commands implements Function<String, String> {

    private final AgentControl control;
    private final Backends backends;

    Commands(AgentControl control, Backends backends) {
        this.control = control;
        this.backends = backends;
    }

    @Override
    public String apply(String command) {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("installed", true);
        String c = command == null ? "status" : command.trim();
        switch (c) {
            case "flush":
                answer.put("filesWritten", control.flush());
                answer.put("flushed", true);
                break;
            case "routing=off":
                control.setRoutingEnabled(false);
                break;
            case "routing=on":
                control.setRoutingEnabled(true);
                break;
            case "status":
                break;
            default:
                answer.put("error", "unknown command '" + c + "'; known: status, flush, routing=on, routing=off");
        }
        answer.put("version", control.version());
        answer.put("routingEnabled", control.routingEnabled());
        answer.put("instrumentedClasses", control.instrumentedClasses());
        answer.put("routedStreams", control.routedStreams());
        answer.put("errors", control.errors());
        answer.put("lastError", control.lastError());
        answer.put("plainPathByReason", control.plainPathByReason());
        SharedBuffer buffer = backends.bufferIfStarted();
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("started", buffer != null);
        BufferMetrics m = buffer == null ? new BufferMetrics(0, 0, 0, 0, 0, 0, 0, 0, 0, "", 0, 0) : buffer.metrics();
        b.put("entries", m.entries());
        b.put("dirtyEntries", m.dirtyEntries());
        b.put("estimatedBytes", m.estimatedBytes());
        b.put("flushes", m.flushes());
        b.put("filesWritten", m.filesWritten());
        b.put("writesAbsorbed", m.writesAbsorbed());
        b.put("readsServed", m.readsServed());
        b.put("conflicts", m.conflicts());
        b.put("staleTempFilesRemoved", buffer == null ? 0 : buffer.staleTempFilesRemoved());
        b.put("backpressureWaits", m.backpressureWaits());
        b.put("backpressureMillis", m.backpressureMillis());
        b.put("lastError", m.lastError());
        answer.put("buffer", b);
        long[] j = JacksonCaptures.counts();
        Map<String, Object> jackson = new LinkedHashMap<>();
        jackson.put("captured", j[0]);
        jackson.put("encodedAtCall", j[1]);
        jackson.put("tokenReads", j[2]);
        jackson.put("byteReads", j[3]);
        jackson.put("encodedAtCallByReason", JacksonCaptures.encodedAtCallByReason());
        answer.put("jacksonCapture", jackson);
        answer.put("configuration", control.configuration());
        return Json.write(answer);
    }
}
