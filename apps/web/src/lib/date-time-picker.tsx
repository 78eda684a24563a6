import { DateTimePicker } from "@mantine/dates";
import "@mantine/dates/styles.css";

/** Mantine's date-time picker with its styles, as one chunk that event time fields load on demand. */
export default DateTimePicker;
