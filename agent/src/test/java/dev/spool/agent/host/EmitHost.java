package dev.spool.agent.host;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Test host without any library: its emitter {@link #emit(Map)} appends one JSON line per call to
 * {@code <file>}. Under the agent with {@code spool.events.methods=dev.spool.agent.host.EmitHost#emit}
 * the calls become events instead. Usage: {@code EmitHost <jsonl file> <calls> [hold]}.
 */
public final class EmitHost {

    private static OutputStream out;

    public static void main(String[] args) throws Exception {
        out = new FileOutputStream(args[0], true);
        int calls = Integer.parseInt(args[1]);
        boolean hold = args.length > 2 && args[2].equals("hold");
        for (int i = 0; i < calls; i++) {
            Map<String, Object> event = new LinkedHashMap<>();
            event.put("seq", i);
            event.put("kind", i % 3 == 0 ? "start" : "step");
            event.put("note", "call \"" + i + "\"");
            emit(event);
        }
        out.close();
        System.out.println("written");
        System.out.flush();
        if (hold) {
            while (System.in.read() >= 0) {
                // wait until the test closes stdin or kills this process
            }
        }
    }

    /** The emitter: one JSON object per line. */
    public static void emit(Map<String, Object> event) throws IOException {
        StringBuilder line = new StringBuilder("{");
        for (Map.Entry<String, Object> e : event.entrySet()) {
            if (line.length() > 1) {
                line.append(',');
            }
            line.append('"').append(e.getKey()).append("\":");
            Object v = e.getValue();
            if (v instanceof Number) {
                line.append(v);
            } else {
                line.append('"').append(v.toString().replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
            }
        }
        out.write(line.append("}\n").toString().getBytes(StandardCharsets.UTF_8));
    }
}
