/// Renders introspection XML for an exported object, standard interfaces included.
public enum DBusIntrospection {
    static let header = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">

        """

    /// The XML `Introspect` returns for `interfaces`, with child node names.
    public static func xml(interfaces: [DBusInterface], children: [String] = []) -> String {
        var out = header + "<node>\n"
        for interface in standardInterfaces + interfaces.map(Description.init) {
            out += "  <interface name=\"\(escape(interface.name))\">\n"
            for annotation in interface.annotations {
                out += "    <annotation name=\"\(escape(annotation.name))\" value=\"\(escape(annotation.value))\"/>\n"
            }
            for method in interface.methods {
                if method.arguments.isEmpty && method.documentation == nil {
                    out += "    <method name=\"\(escape(method.name))\"/>\n"
                    continue
                }
                out += "    <method name=\"\(escape(method.name))\">\n"
                if let documentation = method.documentation {
                    out += "      <annotation name=\"org.gtk.GDBus.DocString\" value=\"\(escape(documentation))\"/>\n"
                }
                for arg in method.arguments {
                    out += "      <arg name=\"\(escape(arg.0.name))\" type=\"\(escape(arg.0.signature))\" direction=\"\(arg.1)\"/>\n"
                }
                out += "    </method>\n"
            }
            for signal in interface.signals {
                if signal.arguments.isEmpty {
                    out += "    <signal name=\"\(escape(signal.name))\"/>\n"
                    continue
                }
                out += "    <signal name=\"\(escape(signal.name))\">\n"
                for arg in signal.arguments {
                    out += "      <arg name=\"\(escape(arg.name))\" type=\"\(escape(arg.signature))\"/>\n"
                }
                out += "    </signal>\n"
            }
            for property in interface.properties {
                out += "    <property name=\"\(escape(property.0))\" type=\"\(escape(property.1))\" access=\"read\"/>\n"
            }
            out += "  </interface>\n"
        }
        for child in children {
            out += "  <node name=\"\(escape(child))\"/>\n"
        }
        out += "</node>\n"
        return out
    }

    /// A plain-data view of an interface, so the standard ones need no handlers.
    struct Description {
        var name: String
        var methods: [(name: String, arguments: [(DBusArgument, String)], documentation: String?)]
        var signals: [DBusSignal]
        var properties: [(String, String)]
        var annotations: [DBusAnnotation] = []

        init(name: String, methods: [(name: String, arguments: [(DBusArgument, String)])], signals: [DBusSignal] = [], properties: [(String, String)] = []) {
            self.name = name
            self.methods = methods.map { ($0.name, $0.arguments, nil) }
            self.signals = signals
            self.properties = properties
        }

        init(_ interface: DBusInterface) {
            name = interface.name
            methods = interface.methods.map { method in
                (method.name, method.inArguments.map { ($0, "in") } + method.outArguments.map { ($0, "out") }, method.documentation)
            }
            signals = interface.signals
            properties = interface.properties.map { ($0.name, $0.signature) }
            annotations = interface.annotations
        }
    }

    static let standardInterfaces: [Description] = [
        Description(
            name: "org.freedesktop.DBus.Introspectable",
            methods: [("Introspect", [(DBusArgument("xml_data", "s"), "out")])]),
        Description(
            name: "org.freedesktop.DBus.Peer",
            methods: [
                ("Ping", []),
                ("GetMachineId", [(DBusArgument("machine_uuid", "s"), "out")]),
            ]),
        Description(
            name: "org.freedesktop.DBus.Properties",
            methods: [
                ("Get", [(DBusArgument("interface_name", "s"), "in"), (DBusArgument("property_name", "s"), "in"), (DBusArgument("value", "v"), "out")]),
                ("GetAll", [(DBusArgument("interface_name", "s"), "in"), (DBusArgument("properties", "a{sv}"), "out")]),
                ("Set", [(DBusArgument("interface_name", "s"), "in"), (DBusArgument("property_name", "s"), "in"), (DBusArgument("value", "v"), "in")]),
            ],
            signals: [
                DBusSignal("PropertiesChanged", [DBusArgument("interface_name", "s"), DBusArgument("changed_properties", "a{sv}"), DBusArgument("invalidated_properties", "as")])
            ]),
    ]

    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}
