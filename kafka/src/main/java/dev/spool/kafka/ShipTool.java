package dev.spool.kafka;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code java -jar spool-agent.jar ship --bootstrap HOST:PORT [--topic T] [--timeout S]
 * [--set key=value]... FILE...}: ships existing event files, each from its checkpoint, one
 * thread per file; progress on stderr once a second. Exit 0 once every file is acknowledged up to
 * its end; 1 when the timeout ends it first (the checkpoints keep what was acknowledged: run it
 * again) or a file cannot be shipped; 2 for a usage error. Called reflectively by the agent jar's
 * CLI ({@code dev.spool.cli.ShipCommand}), with JDK types only.
 */
public final class ShipTool {
    static final long DEFAULT_TIMEOUT_SECONDS = 300;
    static final String USAGE = "--bootstrap HOST:PORT [--topic T] [--timeout SECONDS] [--set KEY=VALUE]... FILE...";

    private ShipTool() {
    }

    public static int run(List<String> args, PrintStream out, PrintStream err) {
        Map<String, String> keys = new LinkedHashMap<>();
        List<Path> files = new ArrayList<>();
        long timeoutSeconds = DEFAULT_TIMEOUT_SECONDS;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            boolean option = a.equals("--bootstrap") || a.equals("--topic") || a.equals("--timeout") || a.equals("--set");
            if (option && i + 1 >= args.size()) {
                err.println("spool ship: " + a + " needs a value");
                return 2;
            }
            switch (a) {
                case "--bootstrap": keys.put("bootstrap.servers", args.get(++i)); break;
                case "--topic": keys.put(ShipperSettings.TOPIC, args.get(++i)); break;
                case "--timeout":
                    try {
                        timeoutSeconds = Long.parseLong(args.get(++i));
                    } catch (NumberFormatException e) {
                        timeoutSeconds = -1;
                    }
                    if (timeoutSeconds <= 0) {
                        err.println("spool ship: --timeout " + args.get(i) + " is not a number of seconds (1 or more)");
                        return 2;
                    }
                    break;
                case "--set": {
                    String kv = args.get(++i);
                    int eq = kv.indexOf('=');
                    if (eq <= 0) {
                        err.println("spool ship: --set " + kv + " is not KEY=VALUE");
                        return 2;
                    }
                    String k = kv.substring(0, eq).trim();
                    keys.put(k.startsWith("spool.kafka.") ? k.substring("spool.kafka.".length()) : k, kv.substring(eq + 1));
                    break;
                }
                default:
                    if (a.startsWith("--")) {
                        err.println("spool ship: unknown option " + a + "; usage: ship " + USAGE);
                        return 2;
                    }
                    files.add(Path.of(a));
            }
        }
        if (files.isEmpty() || !keys.containsKey("bootstrap.servers")) {
            err.println("usage: spool ship " + USAGE);
            return 2;
        }
        ShipperSettings settings;
        try {
            settings = ShipperSettings.from(keys);
        } catch (IllegalArgumentException e) {
            err.println("spool ship: " + e.getMessage());
            return 2;
        }
        for (Path f : files) {
            if (!Files.isRegularFile(f)) {
                err.println("spool ship: " + f + ": no such file");
                return 2;
            }
        }
        ClientLog.print(settings.logClient);
        return ship(files, settings, TimeUnit.SECONDS.toNanos(timeoutSeconds), err);
    }

    private static int ship(List<Path> files, ShipperSettings settings, long timeoutNanos, PrintStream err) {
        String host = Hosts.name();
        long deadline = System.nanoTime() + timeoutNanos;
        List<FileShipper> shippers = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        int n = 0;
        for (Path f : files) {
            FileShipper s = new FileShipper(f, settings, true, host, "spool-ship-" + ProcessHandle.current().pid() + "-" + n++,
                    (key, message) -> err.println("spool ship: " + message));
            s.drainBy(deadline);
            Thread t = new Thread(s, "spool-ship-" + f.getFileName());
            t.setContextClassLoader(ShipTool.class.getClassLoader());
            t.start();
            shippers.add(s);
            threads.add(t);
        }
        boolean running = true;
        while (running) {
            running = false;
            for (Thread t : threads) {
                try {
                    t.join(1000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return 1;
                }
                running |= t.isAlive();
            }
            for (FileShipper s : shippers) {
                if (running) {
                    ShipperStatus st = s.status();
                    err.println("spool ship: " + st.getPath() + ": " + st.getShipped() + " shipped, " + st.getLagBytes()
                            + " bytes to go" + (st.isConnected() ? "" : ", not connected") + (st.getLastError().isEmpty()
                            ? "" : " (last error: " + st.getLastError() + ")"));
                }
            }
        }
        int code = 0;
        for (FileShipper s : shippers) {
            ShipperStatus st = s.status();
            if (s.complete()) {
                err.println("spool ship: " + st.getPath() + ": done, " + st.getShipped() + " records shipped to "
                        + settings.topic + " (records up to " + st.ackedOrdinal + " acknowledged)"
                        + (st.getDeadLetters() == 0 ? "" : "; " + st.getDeadLetters() + " refused by Kafka, kept in "
                        + new DeadLetters(Path.of(st.getPath()), settings.topic).path()));
            } else {
                code = 1;
                err.println("spool ship: " + st.getPath() + ": NOT done: " + (s.fatal() ? "" : "timed out; ")
                        + st.getShipped() + " shipped, " + st.getLagBytes() + " bytes not acknowledged"
                        + (st.getLastError().isEmpty() ? "" : " (last error: " + st.getLastError() + ")")
                        + "; the checkpoint keeps the rest for the next run");
            }
        }
        return code;
    }
}
