package dev.spool.agent.logback;

import java.util.LinkedHashMap;
import java.util.Map;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;

/**
 * A rough cost figure, not a benchmark (no JMH, no assertion): nanoseconds per
 * {@link LogbackJournalCodec#encode} of a typical event (timestamp, INFO, logger, thread, message,
 * two MDC entries, the context's view), after a warm-up, on this thread. Also the payload's size,
 * and with {@code sizes} the payload sizes of a few {@link LogbackRichEvents}.
 * Run: {@code java -cp <agent test class path> dev.spool.agent.logback.LogbackJournalCodecCost [sizes]}.
 */
public final class LogbackJournalCodecCost {
    private LogbackJournalCodecCost() {
    }

    public static void main(String[] args) throws Exception {
        LoggerContext context = new LoggerContext();
        context.setName("default");
        context.putProperty("app", "demo");
        LoggingEvent e = new LoggingEvent("fqcn", context.getLogger("com.example.service.OrderService"), Level.INFO,
                "order {} accepted for customer {}", null, new Object[] {"A-1234", 42});
        e.setThreadName("http-nio-8080-exec-7");
        Map<String, String> mdc = new LinkedHashMap<>();
        mdc.put("traceId", "0af7651916cd43dd8448eb211c80319c");
        mdc.put("user", "alice");
        e.setMDCPropertyMap(mdc);
        e.prepareForDeferredProcessing();
        LogbackJournalCodec codec = LogbackJournalCodec.of(LoggingEvent.class);
        long sink = 0;
        for (int round = 0; round < 5; round++) {
            int n = 2_000_000;
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                sink += codec.encode(e).position();
            }
            long t1 = System.nanoTime();
            System.out.printf("round %d: %.1f ns per encode, %d bytes%n", round, (t1 - t0) / (double) n, codec.encode(e).position());
        }
        if (args.length > 0 && args[0].equals("sizes")) {
            LogbackRichEvents events = new LogbackRichEvents(11, 1_700_000_000_000L);
            for (int i = 0; i < 8; i++) {
                LoggingEvent r = events.next();
                if (r.getThrowableProxy() == null) {
                    r.setThrowableProxy(events.proxy(i));
                }
                System.out.println("rich event " + i + ": " + codec.encode(r).position() + " bytes");
            }
        }
        System.out.println(sink == 42 ? "" : "done");
    }
}
