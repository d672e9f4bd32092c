import InputEvents

extension EvemuTrace {
    /// The trace as a protocol B device would have sent it: a protocol A trace converted through
    /// `ProtocolAConverter`, with the converted device's header; any other trace as it is.
    public func convertedToProtocolB(slots: Int = ProtocolAConverter.defaultSlotCount) throws(ProtocolAConverterError) -> EvemuTrace {
        guard device.isMultitouchA else { return self }
        let converter = try ProtocolAConverter(device: device, slots: slots)
        var trace = self
        trace.device = converter.protocolB
        trace.events = converter.convert(events)
        return trace
    }
}
