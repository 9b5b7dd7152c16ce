package dev.spool.mbeans;

import java.util.List;
import java.util.Map;

/**
 * {@code dev.spool:type=Agent}: the agent as a whole. Reads are point-in-time values.
 */
@Description("The Spool agent: version, routing kill switch, instrumented classes, configuration and errors")
public interface AgentMXBean {
    @Description("Spool's version")
    String getVersion();

    @Description("Kill switch. false flushes everything and sends every later call down the application's original path; true resumes routing")
    boolean isRoutingEnabled();

    void setRoutingEnabled(boolean enabled);

    @Description("Classes Spool has instrumented")
    List<String> getInstrumentedClasses();

    @Description("The effective configuration, key to value")
    Map<String, String> getConfiguration();

    @Description("Failures inside Spool that fell back to the application's original behaviour")
    long getErrors();

    @Description("JUL handlers and Logback appenders left on the plain path since start, by reason: Spool could not prove"
            + " its own path exact for their formatter, pattern, filter or stream (e.g. jul-formatter, jul-filter, jul-format,"
            + " logback-pattern, logback-encoder, logback-prudent); each is also named once in Spool's log")
    Map<String, Long> getPlainPathByReason();

    @Description("The agent's whole state as one JSON object: what 'java -jar spool-agent.jar status <pid> --json' prints")
    String status();

    @Description("Writes every buffered file and drains every routed log and the event file; returns the agent's state as JSON, with filesWritten")
    String flush();
}
