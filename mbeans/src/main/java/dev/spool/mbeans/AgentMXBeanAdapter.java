package dev.spool.mbeans;

import java.util.List;
import java.util.Map;

/** {@link AgentMXBean} over an {@link AgentControl}. */
final class AgentMXBeanAdapter implements AgentMXBean {
    private final AgentControl control;

    AgentMXBeanAdapter(AgentControl control) {
        this.control = control;
    }

    @Override
    public String getVersion() {
        return control.version();
    }

    @Override
    public boolean isRoutingEnabled() {
        return control.routingEnabled();
    }

    @Override
    public void setRoutingEnabled(boolean enabled) {
        control.setRoutingEnabled(enabled);
    }

    @Override
    public List<String> getInstrumentedClasses() {
        return List.copyOf(control.instrumentedClasses());
    }

    @Override
    public Map<String, String> getConfiguration() {
        return Map.copyOf(control.configuration());
    }

    @Override
    public long getErrors() {
        return control.errors();
    }

    @Override
    public Map<String, Long> getPlainPathByReason() {
        return Map.copyOf(control.plainPathByReason());
    }

    @Override
    public String status() {
        return control.command("status");
    }

    @Override
    public String flush() {
        return control.command("flush");
    }
}
