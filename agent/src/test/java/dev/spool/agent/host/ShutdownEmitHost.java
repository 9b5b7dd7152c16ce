package dev.spool.agent.host;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Test host whose shutdown hooks call its emitter: Usage: {@code ShutdownEmitHost <jsonl file> <early|late>}.
 * {@code early} calls {@link #emit} once in {@code main} (the event file is open before the JVM
 * shuts down), {@code late} does not (the first call comes from a hook). Three shutdown hooks,
 * {@code hook-0..2}, each call {@link #emit} once; {@code main} returns after printing {@code registered}.
 * Without the agent each call appends one JSON line to the file.
 */
public final class ShutdownEmitHost {

    static final int HOOKS = 3;
    private static OutputStream out;

    public static void main(String[] args) throws Exception {
        out = new FileOutputStream(args[0], true);
        if (args[1].equals("early")) {
            emit(Map.of("from", "main"));
        }
        for (int i = 0; i < HOOKS; i++) {
            int n = i;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    emit(Map.of("from", "hook-" + n));
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            }, "hook-" + i));
        }
        System.out.println("registered");
    }

    /** The emitter: one JSON object per line (the hooks run at the same time: one line at a time). */
    public static synchronized void emit(Map<String, Object> event) throws IOException {
        out.write(("{\"from\":\"" + event.get("from") + "\"}\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
