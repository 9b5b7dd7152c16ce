package dev.spool.internal;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a type that is {@code public} only because another of Spool's own packages or modules (the
 * agent, the collections, the MBeans, the Kafka shipper) uses it: it is not part of Spool's API and
 * may change or go away in any release. Spool's API is the table in README's "Using the runtime
 * library"; {@code ApiSurfaceTest} fails when a public type outside {@code dev.spool.internal} is
 * neither in that table nor marked with this annotation.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Internal {
}
