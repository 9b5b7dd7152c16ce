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
        return of(DOMAIN + ":type=Sink,name=" + ObjectName.quote(name));
    }

    static ObjectName of(String name) {
        try {
            return new ObjectName(name);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("bad object name " + name, e);
        }
    }
}
