package dev.spool.mbeans;

import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanNotificationInfo;
import javax.management.MBeanOperationInfo;
import javax.management.MBeanParameterInfo;
import javax.management.StandardEmitterMBean;

/**
 * An MXBean whose descriptions and parameter names come from the interface's
 * {@link Description} annotations and compiled parameter names, so JConsole shows real text
 * instead of the JDK's defaults ({@code p0}, "Attribute exposed for management").
 *
 * @param <T> the MXBean interface
 */
final class DescribedMXBean<T> extends StandardEmitterMBean {
    private final Class<T> type;
    private final MBeanNotificationInfo[] notifications;

    DescribedMXBean(T implementation, Class<T> type, SpoolNotifier notifier) {
        super(implementation, type, true, notifier);
        this.type = type;
        this.notifications = notifier.infos();
    }

    @Override
    protected String getDescription(MBeanInfo info) {
        Description d = type.getAnnotation(Description.class);
        return d != null ? d.value() : super.getDescription(info);
    }

    @Override
    protected String getDescription(MBeanAttributeInfo info) {
        for (String prefix : new String[] {"get", "is"}) {
            Method m = method(prefix + info.getName(), 0);
            if (m != null && m.isAnnotationPresent(Description.class)) {
                return m.getAnnotation(Description.class).value();
            }
        }
        return super.getDescription(info);
    }

    @Override
    protected String getDescription(MBeanOperationInfo info) {
        Method m = method(info.getName(), info.getSignature().length);
        return m != null && m.isAnnotationPresent(Description.class)
                ? m.getAnnotation(Description.class).value() : super.getDescription(info);
    }

    @Override
    protected String getParameterName(MBeanOperationInfo op, MBeanParameterInfo param, int sequence) {
        Method m = method(op.getName(), op.getSignature().length);
        if (m != null) {
            Parameter p = m.getParameters()[sequence];
            if (p.isNamePresent()) {
                return p.getName();
            }
        }
        return super.getParameterName(op, param, sequence);
    }

    @Override
    public MBeanNotificationInfo[] getNotificationInfo() {
        return notifications.clone();
    }

    private Method method(String name, int arity) {
        for (Method m : type.getMethods()) {
            if (m.getName().equals(name) && m.getParameterCount() == arity) {
                return m;
            }
        }
        return null;
    }
}
