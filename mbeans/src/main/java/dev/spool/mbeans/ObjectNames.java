package dev.spool.mbeans;

import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/** The object names of SPEC ("MBeans"). */
public final class ObjectNames {
    public static final String DOMAIN = "dev.spool";
    public static final String AGENT = DOMAIN + ":type=Agent";
    public static final String BUFFER = DOMAIN + ":type=Buffer";

    private ObjectNames() {
    }

    public static ObjectName agent() {
        return of(AGENT);
    }

    public static ObjectName buffer() {
        return of(BUFFER);
    }

    /** {@code dev.spool:type=Sink,name="<file name>"}, the name quoted so any path is legal. */
    public static ObjectName sink(String name) {
        return sink(name, null, 1);
    }

    /**
     * The name of one logical sink: {@code dev.spool:type=Sink,name="<file or pattern>"}, then
     * {@code ,appender="<appender>"} when the log belongs to a named appender (Logback), then
     * {@code ,instance=<n>} from the second sink that would otherwise have the same name.
     */
    public static ObjectName sink(String name, String appender, int instance) {
        StringBuilder s = new StringBuilder(DOMAIN).append(":type=Sink,name=").append(ObjectName.quote(name));
        if (appender != null) {
            s.append(",appender=").append(ObjectName.quote(appender));
        }
        if (instance > 1) {
            s.append(",instance=").append(instance);
        }
        return of(s.toString());
    }

    static ObjectName of(String name) {
        try {
            return new ObjectName(name);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("bad object name " + name, e);
        }
    }
}
