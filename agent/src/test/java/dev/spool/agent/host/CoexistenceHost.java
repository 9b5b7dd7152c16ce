package dev.spool.agent.host;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.logging.FileHandler;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Test host for the agents-side-by-side test, three hosts in one JVM to keep CI short: first the
 * sample app's run (Jackson documents and its JUL {@code sim.log}; {@code spool-sample.jar} on the
 * class path), then the same records logged through a JUL {@code FileHandler} ({@code dir/jul.log},
 * a deterministic formatter) and through SLF4J to the Logback configuration named by
 * {@code -Dlogback.configurationFile} (SLF4J called reflectively, as in {@link LogbackHost}); both
 * stay open. Usage: {@code CoexistenceHost <dir> <records> <sample app args...>}; prints
 * {@code written}, then obeys stdin: {@code more} logs {@code records} more to both and prints
 * {@code more written}; end of input closes both loggers and prints {@code done}.
 */
public final class CoexistenceHost {

    public static void main(String[] args) throws Exception {
        String dir = args[0];
        int records = Integer.parseInt(args[1]);
        Method sample = Class.forName("dev.spool.sample.SampleApp")
                .getDeclaredMethod("run", String[].class, PrintStream.class, PrintStream.class);
        sample.setAccessible(true);
        Object code = sample.invoke(null, Arrays.copyOfRange(args, 2, args.length), System.out, System.err);
        if (!Integer.valueOf(0).equals(code)) {
            throw new IllegalStateException("the sample app ended with " + code);
        }

        Logger jul = Logger.getLogger("host.jul");
        jul.setUseParentHandlers(false);
        FileHandler handler = new FileHandler(dir + "/jul.log", false);
        handler.setFormatter(new Formatter() {
            @Override
            public String format(LogRecord r) {
                return r.getLevel() + " " + r.getLoggerName() + " " + formatMessage(r) + "\n";
            }
        });
        jul.addHandler(handler);
        Class<?> factory = Class.forName("org.slf4j.LoggerFactory");
        Object logback = factory.getMethod("getLogger", String.class).invoke(null, "host.logback");
        Method info = logback.getClass().getMethod("info", String.class, Object.class);

        int next = log(jul, logback, info, 0, records);
        System.out.println("written");
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            if (line.equals("more")) {
                next = log(jul, logback, info, next, records);
                System.out.println("more written");
                System.out.flush();
            }
        }
        handler.close();
        Object context = factory.getMethod("getILoggerFactory").invoke(null);
        context.getClass().getMethod("stop").invoke(context); // closes the appenders, as a normal shutdown would
        System.out.println("done");
    }

    private static int log(Logger jul, Object logback, Method info, int from, int n) throws Exception {
        for (int i = from; i < from + n; i++) {
            jul.log(Level.INFO, "jul record {0}: {1}", new Object[] {i, "y".repeat(i % 30)});
            info.invoke(logback, "logback record {}", i + ": " + "x".repeat(i % 30));
        }
        return from + n;
    }
}
