package dev.spool.mbeans;

import java.util.List;
import java.util.Map;

/**
 * What the agent exposes to {@code dev.spool:type=Agent}. Implemented by the agent; every method
 * is called from JMX threads and must be thread-safe and quick.
 */
public interface AgentControl {
    String version();

    boolean routingEnabled();

    /** false flushes everything and routes every later call down the original path. */
    void setRoutingEnabled(boolean enabled);

    List<String> instrumentedClasses();

    Map<String, String> configuration();

    long errors();

    /** JUL handlers and Logback appenders Spool left on the plain path (exactness not proven), by reason. */
    default Map<String, Long> plainPathByReason() {
        return Map.of();
    }

    /**
     * The answer to one of the command line's commands ({@code status}, {@code flush}) as one JSON
     * object, the same whether the command came through JMX or through a loaded agent jar.
     */
    String command(String command);
}
