package dev.spool.kafka;

import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.AbstractLogger;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.helpers.NOPMDCAdapter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The SLF4J provider of spool-kafka.jar's own SLF4J (the Kafka client logs through SLF4J): it
 * lives in Spool's class loader, so the client's logging never reaches the host's SLF4J, Logback,
 * JUL or Spool's routed streams, and no "no SLF4J providers" warning is printed. Warnings and
 * errors go to {@link ClientLog}; the rest is dropped.
 */
public final class ClientLogProvider implements SLF4JServiceProvider {
    private final IMarkerFactory markers = new BasicMarkerFactory();
    private final MDCAdapter mdc = new NOPMDCAdapter();
    private final ILoggerFactory loggers = ClientLogger::new;

    @Override public ILoggerFactory getLoggerFactory() { return loggers; }
    @Override public IMarkerFactory getMarkerFactory() { return markers; }
    @Override public MDCAdapter getMDCAdapter() { return mdc; }
    @Override public String getRequestedApiVersion() { return "2.0.99"; }
    @Override public void initialize() { }

    /** Warn and error to {@link ClientLog}. */
    static final class ClientLogger extends AbstractLogger {
        private static final long serialVersionUID = 1L;

        ClientLogger(String name) {
            this.name = name;
        }

        @Override public boolean isTraceEnabled() { return false; }
        @Override public boolean isTraceEnabled(Marker marker) { return false; }
        @Override public boolean isDebugEnabled() { return false; }
        @Override public boolean isDebugEnabled(Marker marker) { return false; }
        @Override public boolean isInfoEnabled() { return false; }
        @Override public boolean isInfoEnabled(Marker marker) { return false; }
        @Override public boolean isWarnEnabled() { return true; }
        @Override public boolean isWarnEnabled(Marker marker) { return true; }
        @Override public boolean isErrorEnabled() { return true; }
        @Override public boolean isErrorEnabled(Marker marker) { return true; }

        @Override
        protected String getFullyQualifiedCallerName() {
            return null;
        }

        @Override
        protected void handleNormalizedLoggingCall(Level level, Marker marker, String pattern, Object[] args,
                                                   Throwable t) {
            if (level == Level.WARN || level == Level.ERROR) {
                ClientLog.warn(name, MessageFormatter.basicArrayFormat(pattern, args), t);
            }
        }
    }
}
