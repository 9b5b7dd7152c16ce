package dev.spool.agent.reliability;

import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * An application's own converter ({@code %killtag}, printing nothing): Spool does not know it, so an
 * appender whose pattern has it is encoded on the caller's thread by Logback and only its bytes are
 * routed ({@link LogbackJournalKillIT#shouldKeepEveryAcknowledgedLogbackEventAcrossKillsWhenLogbackEncodesOnTheCallersThread}).
 */
public final class LogbackKillTagConverter extends ClassicConverter {
    @Override
    public String convert(ILoggingEvent event) {
        return "";
    }
}
