// The temporal nonlinearity task family: RTC, TXC, FSM.
#include <bem/plugin/adapter.hpp>
#include <tasks/temporal.hpp>

BEM_PLUGIN("temporal", "1", BEM_TASKS(bem::tasks::rtc_task, bem::tasks::txc_task, bem::tasks::fsm_task), BEM_MODELS())
