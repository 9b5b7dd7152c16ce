package dev.spool.agent.logback;

import java.util.Iterator;
import java.util.List;
import org.slf4j.Marker;

/** A host's own Marker class (not slf4j's BasicMarker): its toString is host code and fails the test if run. */
final class ForeignMarker implements Marker {
    @Override
    public String getName() {
        return "FOREIGN";
    }

    @Override
    public void add(Marker reference) {
    }

    @Override
    public boolean remove(Marker reference) {
        return false;
    }

    @Override
    public boolean hasChildren() {
        return false;
    }

    @Override
    public boolean hasReferences() {
        return false;
    }

    @Override
    public Iterator<Marker> iterator() {
        return List.<Marker>of().iterator();
    }

    @Override
    public boolean contains(Marker other) {
        return false;
    }

    @Override
    public boolean contains(String name) {
        return false;
    }

    @Override
    public String toString() {
        throw new AssertionError("host code ran");
    }
}
